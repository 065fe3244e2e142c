/**
 * Issue 26 in a real Chromium against the web host, in English and Chinese (docs/checkpoints.md,
 * "The UI"): a step's chip opens the Diff dialog (file list, side by side or unified — remembered —
 * syntax colours, arrows between files, Esc closes); the run's total; undo a step and redo it; undo
 * the run after a file was changed on disk while its preview was open: the error is said in words,
 * the new preview shows the conflict, and "Use the checkpoint" takes the file back; redo that undo;
 * "Restore to before this message" keeps a file changed since (keep theirs). Real files.
 */
import { readFileSync, existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { en } from '../../src/renderer/src/i18n/en'
import { zhCN } from '../../src/renderer/src/i18n/zh-CN'
import { hasChromium } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] })
const DICTIONARIES = { en, 'zh-CN': zhCN } as const

const APP_TS = 'const greeting = "hello"\nexport function greet(): string {\n  return greeting\n}\n'
const NOTES = 'first line\nsecond line\n'
/** A 1×1 PNG as printf escapes: the Diff dialog shows it as an image. */
const PNG = [...Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64')].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('')

describe.skipIf(!hasChromium())('checkpoints: diffs, undo and redo in the UI', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: the diff view, undo a step and redo it, undo the run with a conflict`, async () => {
      const d = DICTIONARIES[language]
      session = await startUiSession(
        [
          call('file_edit', { path: 'app.ts', old: '"hello"', new: '"hello, world"' }),
          call('shell', { command: 'printf "made by a command\\n" > created.txt && printf "first line\\nsecond line, edited\\n" > notes.md' }),
          call('shell', { command: `printf '${PNG}' > logo.png` }),
          { text: 'Done.' }
        ],
        { language, runtime: 'native', autonomy: 'full' }
      )
      const { page, host, temp } = session
      const file = (name: string) => join(temp.workspace, name)
      writeFileSync(file('app.ts'), APP_TS)
      writeFileSync(file('notes.md'), NOTES)
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      await page.getByTestId('composer-input').fill('Change the files')
      await page.getByTestId('send-button').click()
      await page.getByTestId('message-assistant').last().getByText('Done.').waitFor()

      // The step's chip: "1 file changed +1 −1".
      const edit = page.locator('[data-testid="tool-call"][data-tool="file_edit"]')
      const chip = edit.getByTestId('changes-chip')
      await chip.waitFor()
      expect((await chip.innerText()).replace(/\s+/g, ' ')).toBe(`${d['checkpoints.chip.one'].replace('{n}', '1')} +1 −1`)

      // The Diff dialog: the file, side by side by default, with syntax colours.
      await chip.click()
      const dialog = page.getByTestId('diff-dialog')
      await dialog.waitFor()
      await expect.poll(() => dialog.getByTestId('diff-file-item').count()).toBe(1)
      expect(await dialog.getByTestId('diff-file-item').getAttribute('data-kind')).toBe('modified')
      const text = dialog.getByTestId('diff-text')
      await text.waitFor()
      expect(await text.getAttribute('data-mode')).toBe('split')
      expect(await text.locator('.diff-code[data-kind="del"]').innerText()).toBe('const greeting = "hello"')
      expect(await text.locator('.diff-code[data-kind="add"]').innerText()).toBe('const greeting = "hello, world"')
      expect(await text.locator('.hljs-keyword').count()).toBeGreaterThan(0)
      // Unified, remembered when the dialog opens again.
      await dialog.getByTestId('diff-view-unified').click()
      expect(await dialog.getByTestId('diff-text').getAttribute('data-mode')).toBe('unified')
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })
      await chip.focus()
      await page.keyboard.press('Enter')
      await dialog.getByTestId('diff-text').waitFor()
      expect(await dialog.getByTestId('diff-text').getAttribute('data-mode')).toBe('unified')
      await dialog.getByTestId('diff-view-split').click()
      await dialog.getByTestId('diff-close').click()
      await dialog.waitFor({ state: 'detached' })

      // The run's total, and its Diff dialog: arrows move between the files.
      const total = page.getByTestId('run-changes-total')
      await total.waitFor()
      expect(await total.innerText()).toBe(d['checkpoints.runTotal.other'].replace('{n}', '4'))
      await total.click()
      await dialog.waitFor()
      await expect.poll(() => dialog.getByTestId('diff-file-item').count()).toBe(4)
      const paths = await dialog.getByTestId('diff-file-item').evaluateAll((items) => items.map((item) => item.getAttribute('data-path')))
      expect([...paths].sort()).toEqual(['app.ts', 'created.txt', 'logo.png', 'notes.md'])
      await expect.poll(() => dialog.getByTestId('diff-file').getAttribute('data-path')).toBe(paths[0])
      await page.keyboard.press('ArrowDown')
      await expect.poll(() => dialog.getByTestId('diff-file').getAttribute('data-path')).toBe(paths[1])
      await page.keyboard.press('ArrowUp')
      await expect.poll(() => dialog.getByTestId('diff-file').getAttribute('data-path')).toBe(paths[0])
      // The image side by side: no file before, the PNG after.
      await dialog.locator('[data-testid="diff-file-item"][data-path="logo.png"]').click()
      const images = dialog.getByTestId('diff-images')
      await images.waitFor()
      expect(await images.locator('[data-side="before"] img').count()).toBe(0)
      expect(await images.locator('[data-side="before"] figcaption').innerText()).toContain(d['checkpoints.noFile'])
      expect(await images.locator('[data-side="after"] img').getAttribute('src')).toMatch(/^data:image\/png;base64,iVBOR/)
      await expect.poll(() => images.locator('[data-side="after"] img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1)
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })

      // Undo the edit step: the preview says "Restore app.ts", Apply restores the bytes, Redo puts the edit back.
      const undo = page.getByTestId('undo-dialog')
      await edit.getByTestId('undo-step').click()
      await undo.getByTestId('undo-file').first().waitFor()
      expect(await undo.getByTestId('undo-file').count()).toBe(1)
      expect(await undo.getByTestId('undo-file').innerText()).toContain(d['checkpoints.undo.action.modified'])
      expect(await undo.locator('h2').innerText()).toBe(d['checkpoints.undo.title.call'])
      await undo.getByTestId('undo-apply').click()
      await undo.getByTestId('undo-outcome').waitFor()
      expect(readFileSync(file('app.ts'), 'utf8')).toBe(APP_TS)
      expect(await undo.getByTestId('undo-restored').innerText()).toBe(d['checkpoints.undo.changed'].replace('{files}', 'app.ts'))
      await undo.getByTestId('undo-redo').click()
      await undo.getByTestId('undo-file').first().waitFor()
      expect(await undo.locator('h2').innerText()).toBe(d['checkpoints.undo.title.redo'])
      await undo.getByTestId('undo-apply').click()
      await undo.getByTestId('undo-outcome').waitFor()
      expect(readFileSync(file('app.ts'), 'utf8')).toContain('"hello, world"')
      await undo.getByTestId('undo-close').click()
      await undo.waitFor({ state: 'detached' })

      // Undo the run; notes.md is changed on disk while the preview is open.
      await page.getByTestId('undo-run').click()
      await undo.getByTestId('undo-file').first().waitFor()
      expect(await undo.getByTestId('undo-conflicts').count()).toBe(0)
      const actions = Object.fromEntries(await undo.getByTestId('undo-file').evaluateAll((items) => items.map((item) => [item.getAttribute('data-path'), item.getAttribute('data-kind')])))
      expect(actions).toEqual({ 'app.ts': 'modified', 'created.txt': 'deleted', 'logo.png': 'deleted', 'notes.md': 'modified' })
      writeFileSync(file('notes.md'), 'edited by a person meanwhile\n')
      await undo.getByTestId('undo-apply').click()
      // Said in words, and the preview made again: now with the conflict, kept by default.
      await undo.getByTestId('undo-error').waitFor()
      expect(await undo.getByTestId('undo-error').innerText()).toBe(d['errors.undo.changedSincePreview'])
      const conflict = undo.locator('[data-testid="undo-conflict"][data-path="notes.md"]')
      await conflict.waitFor()
      expect(await undo.getByTestId('undo-conflicts').locator('h3').innerText()).toBe(d['checkpoints.undo.conflicts'])
      expect(await conflict.getByTestId('undo-keep-theirs').isChecked()).toBe(true)
      expect(readFileSync(file('app.ts'), 'utf8')).toContain('"hello, world"')
      await conflict.getByTestId('undo-take-checkpoint').check()
      await undo.getByTestId('undo-apply').click()
      await undo.getByTestId('undo-outcome').waitFor()
      expect(readFileSync(file('app.ts'), 'utf8')).toBe(APP_TS)
      expect(readFileSync(file('notes.md'), 'utf8')).toBe(NOTES)
      expect(existsSync(file('created.txt'))).toBe(false)
      // Redo the run's undo: the state before it comes back, the person's notes included.
      await undo.getByTestId('undo-redo').click()
      await undo.getByTestId('undo-file').first().waitFor()
      await undo.getByTestId('undo-apply').click()
      await undo.getByTestId('undo-outcome').waitFor()
      expect(readFileSync(file('app.ts'), 'utf8')).toContain('"hello, world"')
      expect(existsSync(file('created.txt'))).toBe(true)
      expect(readFileSync(file('notes.md'), 'utf8')).toBe('edited by a person meanwhile\n')
      await undo.getByTestId('undo-close').click()
      await undo.waitFor({ state: 'detached' })

      // "Restore to before this message" on the question: the same preview; the person's notes stay (keep theirs).
      await page.getByTestId('message-user').first().hover()
      await page.getByTestId('message-user').first().getByTestId('restore-before-message').click()
      await undo.getByTestId('undo-file').first().waitFor()
      expect(await undo.locator('h2').innerText()).toBe(d['checkpoints.undo.title.since-run'])
      await undo.locator('[data-testid="undo-conflict"][data-path="notes.md"]').waitFor()
      await undo.getByTestId('undo-apply').click()
      await undo.getByTestId('undo-outcome').waitFor()
      expect(readFileSync(file('app.ts'), 'utf8')).toBe(APP_TS)
      expect(existsSync(file('created.txt'))).toBe(false)
      expect(readFileSync(file('notes.md'), 'utf8')).toBe('edited by a person meanwhile\n')
      expect(await undo.getByTestId('undo-kept').innerText()).toBe(d['checkpoints.undo.kept'].replace('{files}', 'notes.md'))
      await undo.getByTestId('undo-close').click()

    })
  }
})
