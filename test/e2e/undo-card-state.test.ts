/**
 * Issue 38, bug 3, in a real Chromium through the web host, in English and Chinese: after a step is
 * undone its card says so and offers Redo (not "Undo this step" again) — also after a reload, since
 * the state is read from the stored undo audit — a second undo of the undone step is refused in
 * words (before the fix it reported DeskClaw's own undo as "changed by someone else"), and Redo
 * from the card brings the step's change back and the card offers undo again.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { en } from '../../src/renderer/src/i18n/en'
import { zhCN } from '../../src/renderer/src/i18n/zh-CN'
import { hasChromium } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const DICTIONARIES = { en, 'zh-CN': zhCN } as const
const README = '# Project\nold text\n'

describe.skipIf(!hasChromium())('checkpoints: the step card after an undo', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: undone is shown (also after reload), not undone twice, and redone from the card`, async () => {
      const d = DICTIONARIES[language]
      session = await startUiSession([{ toolCalls: [{ name: 'file_edit', args: { path: 'README.md', old: 'old text', new: 'new text' } }] }, { text: 'Done.' }], {
        language,
        runtime: 'native',
        autonomy: 'full'
      })
      const { page, host, temp } = session
      const readme = join(temp.workspace, 'README.md')
      writeFileSync(readme, README)
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      await page.getByTestId('composer-input').fill('Edit the readme')
      await page.getByTestId('send-button').click()
      await page.getByTestId('message-assistant').last().getByText('Done.').waitFor()
      expect(readFileSync(readme, 'utf8')).toContain('new text')

      // Undo the step, close the dialog: the card says undone and offers Redo.
      const card = page.locator('[data-testid="tool-call"][data-tool="file_edit"]')
      await card.getByTestId('undo-step').click()
      const dialog = page.getByTestId('undo-dialog')
      await dialog.getByTestId('undo-file').first().waitFor()
      expect(await dialog.getByTestId('undo-file').count()).toBe(1)
      await dialog.getByTestId('undo-apply').click()
      await dialog.getByTestId('undo-outcome').waitFor()
      await dialog.getByTestId('undo-close').click()
      await dialog.waitFor({ state: 'hidden' })
      expect(readFileSync(readme, 'utf8')).toBe(README)
      await card.getByTestId('step-undone').waitFor()
      expect(await card.getByTestId('step-undone').innerText()).toBe(d['checkpoints.undone'])
      expect(await card.getByTestId('undo-step').count()).toBe(0)

      // A second undo of the same step is refused, in words (the bridge, as the card no longer offers it).
      const conversationId = temp.app.store.listConversations()[0]!.id
      const [undone] = temp.app.undo.undone(conversationId)
      expect(undone).toBeDefined()
      await expect(temp.app.undo.preview({ kind: 'call', runId: undone!.runId, callId: undone!.callId })).rejects.toMatchObject({
        text: { key: 'errors.undo.alreadyUndone' }
      })

      // After a reload the card still says undone; Redo from the card brings the change back.
      await page.reload()
      await page.getByTestId('conversation-item').first().click()
      await card.getByTestId('step-undone').waitFor()
      await card.getByTestId('redo-step').click()
      await dialog.getByTestId('undo-file').first().waitFor()
      expect(await dialog.getByTestId('undo-file').count()).toBe(1)
      await dialog.getByTestId('undo-apply').click()
      await dialog.getByTestId('undo-outcome').waitFor()
      await dialog.getByTestId('undo-close').click()
      expect(readFileSync(readme, 'utf8')).toContain('new text')
      await card.getByTestId('undo-step').waitFor()
      expect(await card.getByTestId('step-undone').count()).toBe(0)
    })
  }
})
