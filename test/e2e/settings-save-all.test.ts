/**
 * Issue 38, bug 1, in a real Chromium through the web host, in English and Chinese: the footer's
 * Save saves the sections that keep their own copy too — Web (a rule added with Add, the read
 * limit), Checkpoints and Project checks — and Close asks before any of their edits is lost
 * (Discard drops them). Before the fix, Save said "Saved" and kept none of them, and Close just
 * closed.
 */
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { hasChromium } from '../helpers/browser'
import { openSettingsSection } from '../helpers/settings'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const TEXT = {
  en: { title: 'Save your changes?', discard: 'Discard changes', saved: 'Saved' },
  'zh-CN': { title: '保存更改？', discard: '放弃更改', saved: '已保存' }
} as const

async function openSettings(page: Page) {
  await page.getByTestId('settings-button').click()
  const panel = page.getByTestId('settings-panel')
  await panel.waitFor({ state: 'visible' })
  return panel
}

/** Edits Web (a rule by Add, the read limit), Checkpoints (days kept) and Project checks (lint). */
async function editSections(page: Page, rule: string, days: string, lint: string) {
  const panel = page.getByTestId('settings-panel')
  await openSettingsSection(page, 'web')
  await panel.getByTestId('web-rule-pattern').fill(rule)
  await panel.getByTestId('web-rule-add').click()
  await panel.getByTestId('web-max-kb').fill('77')
  await openSettingsSection(page, 'checkpoints')
  await panel.getByTestId('checkpoints-keepDays').fill(days)
  await openSettingsSection(page, 'checks')
  await panel.getByTestId('project-checks-lint').fill(lint)
}

describe.skipIf(!hasChromium())('Settings: the footer Save saves every section', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: Save keeps Web, Checkpoints and Project checks; Close asks about them`, async () => {
      const text = TEXT[language]
      session = await startUiSession([], { language })
      const { page, host, temp } = session
      await page.goto(host.url)
      const before = temp.app.settings()
      const workspace = before.workspace
      expect(before.checkpoints.keepDays).not.toBe(42)

      // Edits in the three sections, then Close: asked; Discard drops them all.
      let panel = await openSettings(page)
      await editSections(page, 'discarded.example', '41', 'npm run nothing')
      await panel.getByTestId('settings-close').click()
      const unsaved = page.getByTestId('settings-unsaved')
      await unsaved.waitFor()
      expect(await unsaved.getByRole('heading').innerText()).toBe(text.title)
      await unsaved.getByRole('button', { name: text.discard }).click()
      await panel.waitFor({ state: 'hidden' })
      expect(temp.app.settings().webDomains.some((r) => r.pattern === 'discarded.example')).toBe(false)
      expect(temp.app.settings().checkpoints.keepDays).toBe(before.checkpoints.keepDays)
      expect(temp.app.settings().projectChecks[workspace]?.lint).toBeUndefined()

      // Edits again, then the footer's Save: every section saved, and the form says so.
      panel = await openSettings(page)
      expect(await panel.getByTestId('web-rules').locator('text=discarded.example').count()).toBe(0)
      await editSections(page, 'kept.example', '42', 'npm run lint')
      await panel.getByTestId('settings-save').click()
      await panel.getByTestId('settings-saved').waitFor()
      expect(await panel.getByTestId('settings-saved').innerText()).toBe(text.saved)
      const after = temp.app.settings()
      expect(after.webDomains).toContainEqual({ pattern: 'kept.example', decision: 'allow' })
      expect(after.webMaxBytes).toBe(77 * 1024)
      expect(after.checkpoints.keepDays).toBe(42)
      expect(after.projectChecks[workspace]?.lint).toBe('npm run lint')

      // Nothing left unsaved: Close closes without asking.
      await panel.getByTestId('settings-close').click()
      await panel.waitFor({ state: 'hidden' })
      expect(await unsaved.count()).toBe(0)
    })
  }
})
