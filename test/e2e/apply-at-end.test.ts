/**
 * Apply at the end in a real Chromium against the web host, in English and Chinese
 * (docs/checkpoints.md, "Apply at the end"): with the conversation's switch on, a run under
 * bubblewrap leaves the real workspace untouched; its review card lists the run's one diff and
 * shows again after a reload, now with a file changed meanwhile; English applies the selected files
 * (keeping the person's edit), Chinese takes the run's version of the conflict and applies all.
 * Under the native runtime the switch's refusal is said in words.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BwrapRuntime } from '../../src/main/runtime'
import { en } from '../../src/renderer/src/i18n/en'
import { zhCN } from '../../src/renderer/src/i18n/zh-CN'
import { hasChromium } from '../helpers/browser'
import { requireCapability } from '../helpers/capability'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] })
const DICTIONARIES = { en, 'zh-CN': zhCN } as const
const linux = process.platform === 'linux'
const bwrapProbe = linux ? await BwrapRuntime.probe() : { ok: false as const, reason: 'Linux only' }
const bwrapReady = linux && requireCapability('bwrap', bwrapProbe.ok, `${bwrapProbe.ok ? '' : bwrapProbe.reason} apt-get install bubblewrap`)

const RUN = [
  call('file_write', { path: 'a.txt', content: 'written by the run\n' }),
  call('shell', { command: 'printf "made by the run\\n" > made.txt && printf "notes by the run\\n" > notes.md' }),
  { text: 'Done.' }
]

describe.skipIf(!hasChromium())('apply at the end in the UI', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it.skipIf(!bwrapReady)(`${language}: the run works on a copy; the review applies what is chosen`, async () => {
      const d = DICTIONARIES[language]
      session = await startUiSession(RUN, { language, runtime: 'bwrap', autonomy: 'full' })
      const { page, host, temp } = session
      const file = (name: string) => join(temp.workspace, name)
      writeFileSync(file('a.txt'), 'original\n')
      writeFileSync(file('notes.md'), 'original notes\n')
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      const toggle = page.getByTestId('apply-at-end')
      expect(await toggle.isChecked()).toBe(false)
      expect(await page.locator('.apply-at-end-switch').innerText()).toBe(d['checkpoints.applyAtEnd'])
      await toggle.check()
      await page.getByTestId('composer-input').fill('Change the files')
      await page.getByTestId('send-button').click()
      await page.getByTestId('message-assistant').last().getByText('Done.').waitFor()

      // Nothing real changed; the review card lists the run's files.
      const card = page.getByTestId('staged-review')
      await card.getByTestId('staged-file').first().waitFor()
      expect(readFileSync(file('a.txt'), 'utf8')).toBe('original\n')
      expect(existsSync(file('made.txt'))).toBe(false)
      expect(await card.locator('h3').innerText()).toBe(d['checkpoints.review.title'])
      expect(await card.getByTestId('staged-conflict').count()).toBe(0)
      // The steps worked in the copy: reviewed here, no diff or undo of their own.
      expect(await page.getByTestId('changes-chip').count()).toBe(0)
      expect(await page.getByTestId('undo-run').count()).toBe(0)

      // Someone edits notes.md; after a reload the card is back, with the conflict, and the switch is still on.
      writeFileSync(file('notes.md'), 'my own notes\n')
      await page.reload()
      await card.getByTestId('staged-file').first().waitFor()
      expect(await page.getByTestId('apply-at-end').isChecked()).toBe(true)
      const paths = await card.getByTestId('staged-file').evaluateAll((items) => items.map((item) => item.getAttribute('data-path')))
      expect([...paths].sort()).toEqual(['a.txt', 'made.txt', 'notes.md'])
      const conflict = card.locator('[data-testid="staged-file"][data-path="notes.md"]').getByTestId('staged-conflict')
      await conflict.waitFor()
      expect(await conflict.innerText()).toContain(d['checkpoints.review.conflict'])

      // The run's one diff in the Diff dialog.
      await card.getByTestId('staged-diff').click()
      const dialog = page.getByTestId('diff-dialog')
      await dialog.locator('[data-testid="diff-file-item"][data-path="a.txt"]').click()
      await expect.poll(() => dialog.getByTestId('diff-file').getAttribute('data-path')).toBe('a.txt')
      await dialog.locator('.diff-code[data-kind="add"]').first().waitFor()
      expect(await dialog.locator('.diff-code[data-kind="del"]').first().innerText()).toBe('original')
      expect(await dialog.locator('.diff-code[data-kind="add"]').first().innerText()).toBe('written by the run')
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })

      if (language === 'en') {
        // Apply selected: made.txt left out, notes.md kept as the person wrote it.
        await card.locator('[data-testid="staged-file"][data-path="made.txt"]').getByTestId('staged-select').uncheck()
        await card.getByTestId('staged-apply-selected').click()
        await card.getByTestId('staged-done').waitFor()
        expect(readFileSync(file('a.txt'), 'utf8')).toBe('written by the run\n')
        expect(existsSync(file('made.txt'))).toBe(false)
        expect(readFileSync(file('notes.md'), 'utf8')).toBe('my own notes\n')
      } else {
        // The run's version of the conflict, and all files.
        await conflict.getByTestId('staged-take-run').check()
        await card.getByTestId('staged-apply-all').click()
        await card.getByTestId('staged-done').waitFor()
        expect(readFileSync(file('a.txt'), 'utf8')).toBe('written by the run\n')
        expect(readFileSync(file('made.txt'), 'utf8')).toBe('made by the run\n')
        expect(readFileSync(file('notes.md'), 'utf8')).toBe('notes by the run\n')
      }
      expect(await card.getByTestId('staged-done').locator('p').first().innerText()).toMatch(new RegExp(`^${d['checkpoints.review.applied'].replace('{files}', '')}`))
      // Nothing waits any more: after a reload there is no card.
      await page.reload()
      await page.getByTestId('message-assistant').last().getByText('Done.').waitFor()
      await expect.poll(() => page.getByTestId('staged-review').count()).toBe(0)
    })

    it(`${language}: under the native runtime the refusal is said in words`, async () => {
      const d = DICTIONARIES[language]
      session = await startUiSession([{ text: 'never asked' }], { language, runtime: 'native', autonomy: 'full' })
      const { page, host } = session
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      await page.getByTestId('apply-at-end').check()
      await page.getByTestId('composer-input').fill('Change the files')
      await page.getByTestId('send-button').click()
      const error = page.locator('.composer-error')
      await error.waitFor()
      expect(await error.innerText()).toContain(d['errors.staged.needsSandbox'].replace('{runtime}', 'native'))
    })
  }
})
