/**
 * Settings → Checkpoints in a real Chromium through the web host, in English and Chinese
 * (docs/checkpoints.md, "Settings and pruning"): the section saves what it shows into
 * settings.checkpoints, and a number out of range is said in words, not saved.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { en } from '../../src/renderer/src/i18n/en'
import { zhCN } from '../../src/renderer/src/i18n/zh-CN'
import { hasChromium } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const DICTIONARIES = { en, 'zh-CN': zhCN } as const

describe.skipIf(!hasChromium())('Settings: Checkpoints', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: saves the checkpoint settings, refuses a number out of range`, async () => {
      const d = DICTIONARIES[language]
      session = await startUiSession([], { language })
      const { page, host, temp } = session
      const before = temp.app.settings().checkpoints
      expect(before).toEqual({ enabled: true, maxFileMB: 50, keepDays: 30, maxTotalMB: 2048, keepAfterDelete: false })
      await page.goto(host.url)
      await page.getByTestId('settings-button').click()
      const panel = page.getByTestId('settings-panel')
      await panel.getByTestId('settings-section-tab-checkpoints').click()
      const section = panel.getByTestId('checkpoints-section')
      await section.waitFor()
      expect(await section.locator('h3').textContent()).toBe(d['settings.section.checkpoints'])
      expect(await section.getByTestId('checkpoints-keepDays').inputValue()).toBe('30')

      await section.getByTestId('checkpoints-keepDays').fill('0')
      await section.getByTestId('checkpoints-save').click()
      const problem = section.getByTestId('checkpoints-problem')
      await problem.waitFor()
      expect(await problem.innerText()).toBe(
        d['settings.checkpoints.badNumber'].replace('{field}', d['settings.checkpoints.keepDays']).replace('{min}', '1').replace('{max}', '3650')
      )
      expect(temp.app.settings().checkpoints).toEqual(before)

      await section.getByTestId('checkpoints-keepDays').fill('7')
      await section.getByTestId('checkpoints-maxFileMB').fill('10')
      await section.getByTestId('checkpoints-keep-after-delete').check()
      await section.getByTestId('checkpoints-enabled').uncheck()
      await section.getByTestId('checkpoints-save').click()
      await section.getByTestId('checkpoints-saved').waitFor()
      expect(await section.getByTestId('checkpoints-saved').innerText()).toBe(d['settings.checkpoints.saved'])
      expect(temp.app.settings().checkpoints).toEqual({ enabled: false, maxFileMB: 10, keepDays: 7, maxTotalMB: 2048, keepAfterDelete: true })
    })
  }
})
