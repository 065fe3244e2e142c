/**
 * Issue 22, item 1, in a real Chromium through the web host, in English and Chinese: a 224 KB paste
 * becomes an attachment chip (name, size, how it starts, the limit) instead of composer text cut at
 * 100,000 characters; the model gets the text as an attached file; a long question is folded in
 * the chat with "Show more", which opens and closes it. Screenshot: long-paste-{lang}.png.
 */
import { join } from 'node:path'
import type { Locator } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

interface PageGlobals {
  DataTransfer: new () => { setData(type: string, data: string): void }
  ClipboardEvent: new (type: string, init: Record<string, unknown>) => unknown
}

/** Dispatches a paste of plain text on the element, as the system clipboard would. */
async function pasteText(target: Locator, text: string): Promise<void> {
  await target.evaluate((element, text) => {
    const page = globalThis as unknown as PageGlobals
    const transfer = new page.DataTransfer()
    transfer.setData('text/plain', text)
    const event = new page.ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: transfer })
    ;(element as unknown as { dispatchEvent(event: unknown): boolean }).dispatchEvent(event)
  }, text)
}

const TEXT = {
  en: { pasted: 'Pasted text', size: '224 KB', limit: 'only the first 200 KB is sent', question: 'Summarise the log.', more: 'Show more', less: 'Show less' },
  'zh-CN': { pasted: '粘贴的文本', size: '224 KB', limit: '只发送前 200 KB', question: '总结这段日志。', more: '展开全部', less: '收起' }
} as const

describe.skipIf(!hasChromium())('long pastes and long questions', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: a long paste is a chip, not cut text; a long question folds`, async () => {
      const text = TEXT[language]
      session = await startUiSession([{ text: 'Summarised.' }, { text: 'Read it.' }], { language })
      const { page, host, server } = session
      await page.emulateMedia({ colorScheme: 'light' })
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      const input = page.getByTestId('composer-input')
      const chips = page.getByTestId('attachment-chip')

      // 224 KB of log lines, the last one marked: a cut at 100,000 characters would lose it.
      const line = 'INFO 2026-11-26 worker=7 request served in 12 ms path=/api/items\n'
      const log = `${line.repeat(Math.floor((224 * 1024) / line.length))}END-OF-LOG\n`
      expect(log.length).toBeGreaterThan(200 * 1024)
      await pasteText(input, log)
      await expect.poll(() => chips.count()).toBe(1)
      expect(await input.inputValue()).toBe('')
      const chip = await chips.first().innerText()
      expect(chip).toContain('pasted-text.txt')
      expect(chip).toContain(text.pasted)
      expect(chip).toContain(text.size)
      expect(chip).toContain(text.limit)
      expect(await chips.first().getByTestId('attachment-chip-preview').innerText()).toMatch(/^INFO 2026-11-26 worker=7/)

      // A short paste is still text.
      await pasteText(input, 'short')
      expect(await chips.count()).toBe(1)

      await input.fill(text.question)
      await settled(page)
      await page.screenshot({ path: join(screenshotDir, `long-paste-${language}.png`) })
      await page.getByTestId('send-button').click()
      await page.getByTestId('message-assistant').first().waitFor()
      const request = server.requests.find((r) => r.path === '/v1/chat/completions')!
      const user = JSON.stringify(request.body.messages.find((m: { role: string }) => m.role === 'user'))
      expect(user).toContain('Attached file “pasted-text.txt”')
      expect(user).toContain(text.question)

      // A long question typed whole: folded to its start, opened and closed by its button.
      const long = Array.from({ length: 60 }, (_, i) => `line ${i + 1}: ${'word '.repeat(12)}`).join('\n')
      await input.fill(long)
      await page.getByTestId('send-button').click()
      const question = page.getByTestId('message-user').nth(1)
      const toggle = question.getByTestId('bubble-toggle')
      await toggle.waitFor()
      expect(await toggle.innerText()).toContain(text.more)
      const folded = await question.getByTestId('user-bubble').innerText()
      expect(folded).toContain('line 1:')
      expect(folded).not.toContain('line 60:')
      const foldedHeight = (await question.getByTestId('user-bubble').boundingBox())!.height
      expect(foldedHeight).toBeLessThan(400)
      await toggle.click()
      expect(await question.getByTestId('user-bubble').innerText()).toContain('line 60:')
      expect(await toggle.innerText()).toBe(text.less)
      expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    })
  }
})
