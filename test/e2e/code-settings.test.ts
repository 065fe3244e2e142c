/**
 * Settings for run_code and the lint tool in a real Chromium through the web host, in English and
 * Chinese (docs/tools.md, "run_code", "lint"): Safety → *Run code snippets* saves codeStrictness;
 * Project checks saves the current workspace's commands into settings.projectChecks, and an emptied
 * section removes the workspace's entry.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { en } from '../../src/renderer/src/i18n/en'
import { zhCN } from '../../src/renderer/src/i18n/zh-CN'
import { hasChromium } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const DICTIONARIES = { en, 'zh-CN': zhCN } as const

describe.skipIf(!hasChromium())('Settings: run_code strictness and project checks', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: saves the strictness level and the workspace's check commands`, async () => {
      const d = DICTIONARIES[language]
      session = await startUiSession([], { language })
      const { page, host, temp } = session
      expect(temp.app.settings().codeStrictness).toBe('standard')
      await page.goto(host.url)
      await page.getByTestId('settings-button').click()
      const panel = page.getByTestId('settings-panel')

      await panel.getByTestId('settings-section-tab-safety').click()
      const level = panel.getByTestId('settings-code-strictness')
      expect(await level.locator('option').allTextContents()).toEqual([d['codeStrictness.strict'], d['codeStrictness.standard'], d['codeStrictness.trusted']])
      await level.selectOption('strict')
      expect(await panel.getByText(d['codeStrictness.strict.hint']).count()).toBe(1)
      await panel.getByTestId('settings-save').click()
      await panel.getByTestId('settings-saved').waitFor()
      expect(temp.app.settings().codeStrictness).toBe('strict')

      await panel.getByTestId('settings-section-tab-checks').click()
      const section = panel.getByTestId('project-checks-section')
      await section.waitFor()
      expect(await section.locator('h3').textContent()).toBe(d['settings.section.checks'])
      expect(await section.getByTestId('project-checks-workspace').textContent()).toBe(temp.workspace)
      await section.getByTestId('project-checks-lint').fill('  ruff check --output-format concise src  ')
      await section.getByTestId('project-checks-test').fill('python3 -m pytest -q tests/unit')
      await section.getByTestId('project-checks-save').click()
      await section.getByTestId('project-checks-saved').waitFor()
      expect(await section.getByTestId('project-checks-saved').innerText()).toBe(d['settings.checks.saved'])
      expect(temp.app.settings().projectChecks).toEqual({
        [temp.workspace]: { lint: 'ruff check --output-format concise src', test: 'python3 -m pytest -q tests/unit' }
      })

      await section.getByTestId('project-checks-lint').fill('')
      await section.getByTestId('project-checks-test').fill('')
      await section.getByTestId('project-checks-save').click()
      await expect.poll(() => temp.app.settings().projectChecks).toEqual({})
    })
  }
})
