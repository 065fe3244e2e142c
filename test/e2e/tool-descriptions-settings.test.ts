/**
 * Settings → Model providers → *Tool descriptions* in a real Chromium through the web host, in
 * English and Chinese (docs/tools.md, "Compact tool descriptions"): the field with its label, hint
 * and three choices in the page's language; a choice saved is the app's `toolDescriptions`, and the
 * next run declares its tools that way.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { en } from '../../src/renderer/src/i18n/en'
import { zhCN } from '../../src/renderer/src/i18n/zh-CN'
import { hasChromium } from '../helpers/browser'
import { runPrompt } from '../helpers/temp-app'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const DICTIONARIES = { en, 'zh-CN': zhCN } as const

describe.skipIf(!hasChromium())('Settings: tool descriptions', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: shows the choices and saves compact, which the next run sends`, async () => {
      const d = DICTIONARIES[language]
      session = await startUiSession([{ text: 'ok' }], { language, contextWindow: 200_000 })
      const { page, host, temp, server } = session
      expect(temp.app.settings().toolDescriptions).toBe('auto')
      await page.goto(host.url)
      await page.getByTestId('settings-button').click()
      const panel = page.getByTestId('settings-panel')
      await panel.getByTestId('settings-section-tab-model').click()

      const select = panel.getByTestId('settings-tool-descriptions')
      expect(await page.locator(`label[for="${await select.getAttribute('id')}"]`).innerText()).toBe(d['settings.toolDescriptions'])
      expect(await panel.getByText(d['settings.toolDescriptionsHint']).count()).toBe(1)
      expect(await select.locator('option').allTextContents()).toEqual([d['toolDescriptions.auto'], d['toolDescriptions.full'], d['toolDescriptions.compact']])
      await select.selectOption('compact')
      await panel.getByTestId('settings-save').click()
      await panel.getByTestId('settings-saved').waitFor()
      expect(temp.app.settings().toolDescriptions).toBe('compact')

      // A 200k window would be full under auto: the saved choice is what the run sends.
      await runPrompt(temp, 'hello')
      const sent = server.requests[0]!.body.tools as Array<{ function: { name: string; description: string } }>
      const compact = temp.app.registry.toModelTools('compact')
      expect(sent.map((t) => [t.function.name, t.function.description])).toEqual(compact.map((t) => [t.name, t.description]))
    })
  }
})
