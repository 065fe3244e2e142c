/**
 * Issue 22, item 2, in a real Chromium through the web host, in English and Chinese: closing
 * Settings with changes not saved (WeChat turned on, Max steps changed) asks first — Keep editing
 * keeps them, Discard drops them, Save and close saves them — by the Close button, × and Esc; with
 * nothing changed, Close just closes. Screenshot: settings-unsaved-{lang}.png.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { openSettingsSection } from '../helpers/settings'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const TEXT = {
  en: { title: 'Save your changes?', keep: 'Keep editing', discard: 'Discard changes', save: 'Save and close' },
  'zh-CN': { title: '保存更改？', keep: '继续编辑', discard: '放弃更改', save: '保存并关闭' }
} as const

async function openSettings(page: Page) {
  await page.getByTestId('settings-button').click()
  const panel = page.getByTestId('settings-panel')
  await panel.waitFor({ state: 'visible' })
  await openSettingsSection(page, 'chatApps')
  await panel.locator('[data-testid="chat-app"][data-app="weixin"]').waitFor()
  return panel
}

describe.skipIf(!hasChromium())('Settings: no silent loss on close', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: closing with changes asks; keep, discard and save do what they say`, async () => {
      const text = TEXT[language]
      session = await startUiSession([], { language })
      const { page, host, temp } = session
      await page.emulateMedia({ colorScheme: 'light' })
      await page.goto(host.url)
      const unsaved = page.getByTestId('settings-unsaved')

      // Nothing changed: Close closes.
      let panel = await openSettings(page)
      await panel.getByTestId('settings-close').click()
      await panel.waitFor({ state: 'hidden' })

      // WeChat on and Max steps 7, then Close: asked; Keep editing keeps both.
      panel = await openSettings(page)
      const weixin = panel.locator('[data-testid="chat-app"][data-app="weixin"]')
      await weixin.getByTestId('chat-app-enabled').click()
      await openSettingsSection(page, 'safety')
      await panel.getByTestId('settings-max-iterations').fill('7')
      await panel.getByTestId('settings-close').click()
      await unsaved.waitFor()
      expect(await unsaved.getByRole('heading').innerText()).toBe(text.title)
      await settled(page)
      await page.screenshot({ path: join(screenshotDir, `settings-unsaved-${language}.png`) })
      await unsaved.getByRole('button', { name: text.keep }).click()
      await unsaved.waitFor({ state: 'hidden' })
      expect(await panel.isVisible()).toBe(true)
      expect(await weixin.getByTestId('chat-app-enabled').isChecked()).toBe(true)
      expect(await panel.getByTestId('settings-max-iterations').inputValue()).toBe('7')

      // Esc asks too; Esc again is "keep editing", not a second close.
      await page.keyboard.press('Escape')
      await unsaved.waitFor()
      await page.keyboard.press('Escape')
      await unsaved.waitFor({ state: 'hidden' })
      expect(await panel.isVisible()).toBe(true)

      // × then Discard: closed, nothing saved.
      await panel.getByTestId('settings-close-x').click()
      await unsaved.getByRole('button', { name: text.discard }).click()
      await panel.waitFor({ state: 'hidden' })
      expect(temp.app.settings().maxIterations).toBe(10)
      expect(temp.app.settings().chatApps.weixin?.enabled ?? false).toBe(false)

      // Again, then Save and close: both saved.
      panel = await openSettings(page)
      expect(await panel.getByTestId('settings-max-iterations').inputValue()).toBe('10')
      await panel.locator('[data-testid="chat-app"][data-app="weixin"]').getByTestId('chat-app-enabled').click()
      await openSettingsSection(page, 'safety')
      await panel.getByTestId('settings-max-iterations').fill('7')
      await page.keyboard.press('Escape')
      await unsaved.getByRole('button', { name: text.save }).click()
      await panel.waitFor({ state: 'hidden' })
      expect(temp.app.settings().maxIterations).toBe(7)
      expect(temp.app.settings().chatApps.weixin?.enabled).toBe(true)
    })
  }
})
