/**
 * Issue 22, item 9 (the parts done), in a real Chromium through the web host, in English and
 * Chinese: one model on the server is "1 model", not "1 models"; the key variable's placeholder
 * is the variable the chosen provider reads; a provider with its own endpoint says that an empty
 * base URL means it; the chat header's autonomy chip opens Settings at its Safety section, the
 * current level focused.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { hasChromium } from '../helpers/browser'
import { openSettingsSection } from '../helpers/settings'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const TEXT = {
  en: { one: '1 model on the server', empty: 'Empty: the provider’s own endpoint' },
  'zh-CN': { one: '服务器上有 1 个模型', empty: '留空：使用服务商自己的地址' }
} as const

describe.skipIf(!hasChromium())('Settings: provider texts', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: "1 model", the key variable the provider reads, the default endpoint`, async () => {
      session = await startUiSession([], { language })
      const { page, host } = session
      await page.goto(host.url)
      await page.getByTestId('settings-button').click()
      const panel = page.getByTestId('settings-panel')
      await openSettingsSection(page, 'model')
      const status = panel.getByTestId('settings-model-status')
      await expect.poll(() => status.getAttribute('data-state'), { timeout: 10_000 }).toBe('ready')
      expect(await status.innerText()).toContain(TEXT[language].one)

      const keyEnv = panel.getByTestId('settings-api-key-env')
      expect(await keyEnv.getAttribute('placeholder')).toBe('DESKCLAW_API_KEY')
      await panel.getByTestId('settings-provider').selectOption('anthropic')
      expect(await keyEnv.getAttribute('placeholder')).toBe('ANTHROPIC_API_KEY')
      await panel.getByTestId('settings-provider').selectOption('openai')
      expect(await keyEnv.getAttribute('placeholder')).toBe('OPENAI_API_KEY')
      expect(await panel.getByTestId('settings-base-url').getAttribute('placeholder')).toBe(TEXT[language].empty)
      await panel.getByTestId('settings-provider').selectOption('openai-compatible')
      expect(await panel.getByTestId('settings-base-url').getAttribute('placeholder')).toBe('http://localhost:11434/v1')
    })

    it(`${language}: the autonomy chip opens Settings at Safety`, async () => {
      session = await startUiSession([], { language })
      const { page, host } = session
      await page.setViewportSize({ width: 1280, height: 600 })
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      await page.getByTestId('autonomy-chip').click()
      const safety = page.getByTestId('settings-section-safety')
      await safety.waitFor()
      await expect.poll(() => page.getByTestId('settings-autonomy-supervised').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)
      const box = await safety.boundingBox()
      expect(box!.y).toBeGreaterThanOrEqual(0)
      expect(box!.y).toBeLessThan(600)
    })
  }
})
