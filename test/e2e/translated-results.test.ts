/**
 * Texts from main, translated (docs/architecture.md, "Texts from main"), in a real Chromium
 * against the web host: a run that writes a file, reads it back, has one shell command denied by
 * the person and one by the rules shows each result as a line in the UI's language above the raw
 * output (which stays what the tool printed), in the folded run's rows and in the cards, and
 * again after a reload (the lines come from the event log). A model server that cannot be reached
 * fails the next run with a translated error.
 */
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Settings } from '../../src/shared'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const CONTENT = 'hello world\n' // 12 bytes

const EXPECTED: Record<Settings['language'], { wrote: string; read: string; denied: string; policy: RegExp; unreachable: (url: string) => string }> = {
  'zh-CN': {
    wrote: '已写入 12 字节到 notes/a.txt。',
    read: '已读取 notes/a.txt 的第 1–1 行（共 1 行）。',
    denied: '你拒绝了这次调用，未运行。',
    policy: /^安全规则不允许：递归删除根目录、系统目录或你的主目录。 未运行。$/,
    unreachable: (url) => `${new URL(url).host} 上没有程序在监听：${url} 的模型服务器没有运行，或在监听别的端口`
  },
  en: {
    wrote: 'Wrote 12 bytes to notes/a.txt.',
    read: 'Read lines 1–1 of 1 from notes/a.txt.',
    denied: 'You denied this call; it did not run.',
    policy: /^Not allowed by the safety rules: Recursively deletes \/\. It did not run\.$/,
    unreachable: (url) => `Nothing is listening on ${new URL(url).host}: the model server at ${url} is not running, or listens on another port`
  }
}

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] })

describe.skipIf(!hasChromium())('translated tool results and errors in the web UI', () => {
  let session: UiSession | undefined

  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['zh-CN', 'en'] as const) {
    it(`${language}: result lines, denial lines and a model error in the UI's language`, async () => {
      const expected = EXPECTED[language]
      session = await startUiSession(
        [
          call('file_write', { path: 'notes/a.txt', content: CONTENT }),
          call('file_read', { path: 'notes/a.txt' }),
          call('shell', { command: 'rm -rf build' }),
          call('shell', { command: 'rm -rf /' }),
          { text: 'Done.' }
        ],
        { language }
      )
      const { page, host, temp } = session
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      await page.getByTestId('composer-input').fill('Write a note, then clean up')
      await page.getByTestId('send-button').click()

      // The write asks (supervised); allow it once. The first rm asks; deny it.
      const modal = page.getByTestId('approval-modal')
      for (const [tool, answer] of [
        ['file_write', 'approval-allow'],
        ['shell', 'approval-deny']
      ] as const) {
        const question = modal.locator(`.approval-head[data-tool="${tool}"]`)
        await question.waitFor({ state: 'visible' })
        const id = await question.getAttribute('data-approval-id')
        await expect.poll(() => modal.getByTestId(answer).isEnabled()).toBe(true)
        await modal.getByTestId(answer).click()
        await modal.locator(`.approval-head[data-approval-id="${id}"]`).waitFor({ state: 'detached' })
      }
      await expect.poll(() => page.getByTestId('message-assistant').last().innerText()).toContain('Done.')

      // Every completion carried its line; the raw output is what the tool printed.
      const completed = temp.events.filter((e) => e.type === 'tool_call_completed')
      expect(completed.map((e) => e.display?.key)).toEqual([
        'result.wrote',
        'result.read',
        'toolRun.deniedByUser',
        'toolRun.deniedByPolicy'
      ])
      // A write's whole result is its line: no English "Wrote 12 bytes…" beside it (issue 22, item 8).
      expect(completed[0]!.output).toBe('')

      await checkTimeline(session, expected, language)
      await settled(page)
      await page.screenshot({ path: join(screenshotDir, `translated-results-${language}.png`) })

      // After a reload the lines come from the snapshot (the event log), the same.
      await page.reload()
      await checkTimeline(session, expected, language)

      // A model server nobody listens at: the run fails with the translated error.
      const unreachable = await closedPortUrl()
      temp.app.updateSettings({ baseUrl: unreachable })
      await page.getByTestId('composer-input').fill('Once more')
      await page.getByTestId('send-button').click()
      const error = page.getByTestId('run-error')
      await error.waitFor({ state: 'visible' })
      expect(await error.innerText()).toBe(expected.unreachable(unreachable))
      const failed = temp.events.find((e) => e.type === 'run_failed')
      expect(failed?.type === 'run_failed' && failed.error).toMatchObject({ code: 'MODEL_UNREACHABLE', key: 'errors.model.refused' })
      await page.reload()
      await page.getByTestId('run-error').waitFor({ state: 'visible' })
      expect(await page.getByTestId('run-error').innerText()).toBe(expected.unreachable(unreachable))
    })
  }
})

/** The folded run: its rows' lines, the opened cards' lines above the raw output, the denied cards' one-line headers. */
async function checkTimeline(session: UiSession, expected: (typeof EXPECTED)[keyof typeof EXPECTED], language: 'en' | 'zh-CN'): Promise<void> {
  const { page } = session
  // Denied calls are never hidden: their cards show under the folded row.
  const denied = page.locator('[data-testid="tool-call"][data-status="denied"]')
  await expect.poll(() => denied.count()).toBe(2)
  // Finished, so folded to one line that says the denial (issue 22, item 8).
  expect(await denied.nth(0).getByTestId('tool-header-result').innerText()).toBe(expected.denied)
  expect(await denied.nth(1).getByTestId('tool-header-result').innerText()).toMatch(expected.policy)

  const group = page.getByTestId('tool-group')
  await group.waitFor({ state: 'visible' })
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click()
  const writeRow = page.locator('[data-testid="tool-row"][data-tool="file_write"]')
  await writeRow.waitFor({ state: 'visible' })
  expect(await writeRow.getByTestId('tool-row-result').innerText()).toBe(expected.wrote)
  const readRow = page.locator('[data-testid="tool-row"][data-tool="file_read"]')
  expect(await readRow.getByTestId('tool-row-result').innerText()).toBe(expected.read)

  await writeRow.click()
  const card = page.locator('[data-testid="tool-call"][data-tool="file_write"]')
  await card.waitFor({ state: 'visible' })
  expect(await card.getByTestId('tool-result-line').innerText()).toBe(expected.wrote)
  // A write printed nothing: its line is the whole result, said once (issue 22, item 8).
  expect(await card.getByTestId('tool-call-output').count()).toBe(0)
  expect((await card.innerText()).split('Wrote 12 bytes').length - 1).toBe(language === 'en' ? 1 : 0)
  // A read's raw output stays below its line, as the tool printed it.
  await readRow.click()
  const read = page.locator('[data-testid="tool-call"][data-tool="file_read"]')
  await read.waitFor({ state: 'visible' })
  const line = await read.getByTestId('tool-result-line').boundingBox()
  const output = await read.getByTestId('tool-call-output').boundingBox()
  expect(line!.y).toBeLessThan(output!.y)
}

/** A loopback URL nothing listens at (a port just freed; fetch refuses some fixed ones, such as 9, outright). */
async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}/v1`
}
