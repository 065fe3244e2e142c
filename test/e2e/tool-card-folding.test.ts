/**
 * Issue 22, item 8, in a real Chromium against the web host, in English and Chinese: a finished
 * tool call is one line — its summary, how it ended, its status and duration — and opens by click,
 * Enter or Space (aria-expanded says which); a call waiting for an answer and a failed call stay
 * open; an open card says each fact once (no "exit code 0" under "Exited with code 0", no byte
 * count twice, no runtime chip beside a line that names the runtime).
 */
import type { Locator } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import type { Settings } from '../../src/shared'
import { hasChromium } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] })

const EXPECTED: Record<Settings['language'], { exited: RegExp; wrote: string; completed: string; error: string }> = {
  en: { exited: /^Exited with code 0 \(ran in \w+\)\.$/, wrote: 'Wrote 3 bytes to notes.txt.', completed: 'Completed', error: 'Error' },
  'zh-CN': { exited: /^退出码 0（运行于 \w+）。$/, wrote: '已写入 3 字节到 notes.txt。', completed: '已完成', error: '出错' }
}

/** The card's lines as a person reads them, header included. */
async function lines(card: Locator): Promise<string[]> {
  return (await card.innerText())
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
}

describe.skipIf(!hasChromium())('finished tool calls fold to one line', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: folded when finished, open while asking or failed, each fact once`, async () => {
      const expected = EXPECTED[language]
      session = await startUiSession(
        [
          call('shell', { command: 'echo hi' }),
          call('file_write', { path: 'notes.txt', content: 'hi\n' }),
          call('shell', { command: 'ls missing-folder' }),
          { text: 'Done.' }
        ],
        { language }
      )
      const { page, host } = session
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      await page.getByTestId('composer-input').fill('Say hi, write a note, list a folder')
      await page.getByTestId('send-button').click()

      // Waiting for an answer: open.
      const write = page.locator('[data-testid="tool-call"][data-tool="file_write"]')
      const modal = page.getByTestId('approval-modal')
      await modal.waitFor({ state: 'visible' })
      await page.locator('[data-testid="tool-call"][data-tool="file_write"][data-status="awaiting_approval"]').waitFor()
      expect(await write.locator('.tool-call-header').getAttribute('aria-expanded')).toBe('true')
      await expect.poll(() => modal.getByTestId('approval-allow').isEnabled()).toBe(true)
      await modal.getByTestId('approval-allow').click()
      await page.getByTestId('message-assistant').last().getByText('Done.').waitFor()

      // Finished: one line with the summary, how it ended, the status and the duration.
      const echo = page.locator('[data-testid="tool-call"][data-tool="shell"][data-status="completed"]')
      const echoHeader = echo.locator('.tool-call-header')
      await expect.poll(() => echoHeader.getAttribute('aria-expanded')).toBe('false')
      expect(await echo.locator('.tool-call-body').count()).toBe(0)
      expect(await echo.locator('.tool-summary').innerText()).toBe('echo hi')
      expect(await echo.getByTestId('tool-header-result').innerText()).toMatch(expected.exited)
      expect(await echo.locator('.status-chip').innerText()).toBe(expected.completed)
      expect(await echo.getByTestId('tool-duration').isVisible()).toBe(true)
      const box = await echo.boundingBox()
      expect(box!.height).toBeLessThan(50)
      await expect.poll(() => write.locator('.tool-call-header').getAttribute('aria-expanded')).toBe('false')
      expect(await write.getByTestId('tool-header-result').innerText()).toBe(expected.wrote)

      // A failure stays open.
      const failed = page.locator('[data-testid="tool-call"][data-tool="shell"][data-status="error"]')
      expect(await failed.locator('.tool-call-header').getAttribute('aria-expanded')).toBe('true')
      expect(await failed.getByTestId('tool-call-output').innerText()).toContain('missing-folder')
      expect(await failed.locator('.status-chip').innerText()).toBe(expected.error)

      // A click opens it: what it printed, the outcome once, no "exit code"/"stdout:" framing, no runtime chip repeating the line.
      await echoHeader.click()
      expect(await echoHeader.getAttribute('aria-expanded')).toBe('true')
      expect(await echo.getByTestId('tool-call-output').innerText()).toBe('hi')
      expect(await echo.getByTestId('tool-result-line').innerText()).toMatch(expected.exited)
      expect(await echo.getByTestId('tool-header-result').count()).toBe(0)
      expect(await echo.getByTestId('tool-runtime').count()).toBe(0)
      const echoLines = await lines(echo)
      expect(echoLines.join('\n')).not.toMatch(/exit code|stdout:/)
      expect(new Set(echoLines).size).toBe(echoLines.length)
      // And folds back.
      await echoHeader.click()
      expect(await echoHeader.getAttribute('aria-expanded')).toBe('false')
      expect(await echo.locator('.tool-call-body').count()).toBe(0)

      // Keyboard: Enter opens, Space folds.
      const writeHeader = write.locator('.tool-call-header')
      await writeHeader.focus()
      await page.keyboard.press('Enter')
      expect(await writeHeader.getAttribute('aria-expanded')).toBe('true')
      const writeLines = await lines(write)
      expect(writeLines.filter((line) => line.includes(expected.wrote))).toHaveLength(1)
      expect(new Set(writeLines).size).toBe(writeLines.length)
      await page.keyboard.press('Space')
      expect(await writeHeader.getAttribute('aria-expanded')).toBe('false')

      // A reload keeps finished calls folded.
      await page.reload()
      await page.getByTestId('message-assistant').last().getByText('Done.').waitFor()
      expect(await echo.locator('.tool-call-header').getAttribute('aria-expanded')).toBe('false')
      expect(await failed.locator('.tool-call-header').getAttribute('aria-expanded')).toBe('true')
    })
  }
})
