/**
 * A model's answer in GitHub-flavoured Markdown with math, in a real Chromium through the web host:
 * a wide table scrolls inside its own box (the page does not), strikethrough, a task list, a bare
 * URL as a link, KaTeX math with its bundled fonts under the app's CSP, and the Copy action under a
 * message (mouse and keyboard, the Clipboard API and its fallback). In English and Chinese; the
 * screenshots chat-table-en-light.png and chat-table-zh-CN-dark.png land in screenshotDir.
 */
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import type { Settings } from '../../src/shared'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const VARIANTS: Array<{ language: Settings['language']; theme: 'light' | 'dark' }> = [
  { language: 'en', theme: 'light' },
  { language: 'zh-CN', theme: 'dark' }
]

const TEXT = {
  en: {
    question: 'Compare the JavaScript runtimes, please.',
    intro: 'Here is what I found.',
    strike: '~~Python 2~~ is retired.',
    tasks: ['benchmark the runtimes', 'write the report'],
    details: 'Details:',
    math: 'Einstein: $E=mc^2$, and the area under $x^2$:',
    header: ['Runtime', 'Language', 'Cold start (ms)', 'Memory (MiB)', 'Throughput (req/s)', 'p99 latency (ms)', 'Licence', 'First release', 'Maintained by'],
    copyAnswer: 'Copy answer (Markdown)',
    copyQuestion: 'Copy message',
    copied: 'Copied',
    tableName: 'Table'
  },
  'zh-CN': {
    question: '请比较一下这几个 JavaScript 运行时。',
    intro: '这是我的发现。',
    strike: '~~Python 2~~ 已停止维护。',
    tasks: ['测试各运行时的性能', '撰写报告'],
    details: '详情：',
    math: '爱因斯坦：$E=mc^2$，以及 $x^2$ 下的面积：',
    header: ['运行时', '语言', '冷启动（毫秒）', '内存（MiB）', '吞吐量（请求/秒）', 'p99 延迟（毫秒）', '许可证', '首次发布', '维护者'],
    copyAnswer: '复制回答（Markdown）',
    copyQuestion: '复制消息',
    copied: '已复制',
    tableName: '表格'
  }
} as const

const ROWS = [
  ['Node.js', 'JavaScript', '41', '38', '12840', '9.7', 'MIT', '2009', 'OpenJS Foundation'],
  ['Deno', 'TypeScript', '35', '31', '13410', '8.9', 'MIT', '2018', 'Deno Land Inc.'],
  ['Bun', 'Zig', '12', '27', '19020', '6.1', 'MIT', '2021', 'Oven']
]

function answerFor(language: Settings['language']): string {
  const t = TEXT[language]
  const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`
  return [
    t.intro,
    '',
    t.strike,
    '',
    `- [x] ${t.tasks[0]}`,
    `- [ ] ${t.tasks[1]}`,
    '',
    `${t.details} https://example.com/bench`,
    '',
    t.math,
    '',
    '$$',
    '\\int_0^1 x^2\\,dx = \\frac{1}{3}',
    '$$',
    '',
    row(t.header),
    '| --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- |',
    ...ROWS.map(row)
  ].join('\n')
}

/*
 * Callbacks passed to evaluate() run in Chromium, where globalThis is the window; they are sent as
 * source, so they reach it as `(globalThis as any)` (this file is type-checked without the DOM).
 */
const opacity = (locator: Locator) => locator.evaluate((element: any) => (globalThis as any).getComputedStyle(element).opacity as string)
const clipboard = (page: Page) => page.evaluate(() => (globalThis as any).navigator.clipboard.readText() as Promise<string>)

describe.skipIf(!hasChromium())('Markdown answers and the message actions', () => {
  let session: UiSession | undefined
  afterAll(async () => {
    await session?.close()
  })

  for (const { language, theme } of VARIANTS) {
    it(`${language}, ${theme}: GFM, math, a scrolling table, Copy`, async () => {
      const t = TEXT[language]
      const ANSWER = answerFor(language)
      await session?.close()
      session = await startUiSession([{ text: ANSWER, chunkDelayMs: 2 }], { language })
      const { page, host } = session
      const cspViolations: string[] = []
      page.on('console', (message) => {
        if (/Content.Security.Policy|Refused to/i.test(message.text())) cspViolations.push(message.text())
      })
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(host.url).origin })
      await page.emulateMedia({ colorScheme: theme })
      await page.setViewportSize({ width: 700, height: 800 })

      await page.goto(host.url)
      // Below 720 px the sidebar is a drawer: open it first (starting a conversation closes it).
      await page.getByTestId('sidebar-expand').click()
      await page.getByTestId('new-conversation').click()
      await page.getByTestId('composer-input').fill(t.question)
      await page.getByTestId('send-button').click()
      const answer = page.getByTestId('message-assistant').last()
      await answer.locator('table').waitFor()
      await expect.poll(() => answer.locator('tbody tr').count()).toBe(ROWS.length)
      await page.getByTestId('send-button').waitFor() // the run is over (Stop is Send again)

      // The table: a real <table>, in a named box that scrolls sideways; the page itself does not.
      const box = answer.locator('.table-scroll')
      expect(await box.count()).toBe(1)
      expect(await box.locator(':scope > table').count()).toBe(1)
      expect(await box.getAttribute('role')).toBe('region')
      expect(await box.getAttribute('aria-label')).toBe(t.tableName)
      expect(await answer.locator('thead th').allInnerTexts()).toEqual([...t.header])
      const boxSize = await box.evaluate((element: any) => ({
        scrollWidth: element.scrollWidth as number,
        clientWidth: element.clientWidth as number,
        overflowX: (globalThis as any).getComputedStyle(element).overflowX as string
      }))
      expect(boxSize.overflowX).toBe('auto')
      expect(boxSize.scrollWidth, JSON.stringify(boxSize)).toBeGreaterThan(boxSize.clientWidth)
      const pageSize = await page.evaluate(() => {
        const root = (globalThis as any).document.documentElement
        const scroller = (globalThis as any).document.querySelector('.chat-scroll')
        return {
          root: [root.scrollWidth, root.clientWidth] as number[],
          chat: [scroller.scrollWidth, scroller.clientWidth] as number[]
        }
      })
      expect(pageSize.root[0], JSON.stringify(pageSize)).toBeLessThanOrEqual(pageSize.root[1]!)
      expect(pageSize.chat[0], JSON.stringify(pageSize)).toBeLessThanOrEqual(pageSize.chat[1]!)
      // The keyboard scrolls it too: the box is focusable.
      await box.focus()
      await page.keyboard.press('ArrowRight')
      await expect.poll(() => box.evaluate((element: any) => element.scrollLeft as number)).toBeGreaterThan(0)

      // Strikethrough, the task list, the bare URL as a link (through the link that asks first).
      expect(await answer.locator('del').innerText()).toBe('Python 2')
      const boxes = answer.locator('li.task-list-item input[type="checkbox"]')
      expect(await boxes.count()).toBe(2)
      expect(await boxes.nth(0).isChecked()).toBe(true)
      expect(await boxes.nth(1).isChecked()).toBe(false)
      expect(await boxes.nth(0).isDisabled()).toBe(true)
      const link = answer.locator('a[href="https://example.com/bench"]')
      expect(await link.innerText()).toBe('https://example.com/bench')
      await link.click()
      await page.getByTestId('open-link').waitFor()
      expect(await page.getByTestId('open-link-url').innerText()).toBe('https://example.com/bench')
      await page.keyboard.press('Escape')
      await page.getByTestId('open-link').waitFor({ state: 'hidden' })

      // Math by KaTeX: two inline formulas in the paragraph, one display block; its fonts load under the CSP.
      const inline = answer.locator('p .katex')
      expect(await inline.count()).toBe(2)
      expect(await inline.first().locator('annotation').textContent()).toBe('E=mc^2')
      const display = answer.locator('.katex-display')
      expect(await display.count()).toBe(1)
      expect(await display.locator('annotation').textContent()).toBe('\\int_0^1 x^2\\,dx = \\frac{1}{3}')
      expect(await answer.locator('.katex-error').count()).toBe(0)
      expect(await answer.innerText()).not.toContain('$')
      expect(await inline.first().evaluate((element: any) => (globalThis as any).getComputedStyle(element).fontFamily as string)).toContain('KaTeX_Main')
      const loadedFaces = await page.evaluate(async () => {
        const fonts = (globalThis as any).document.fonts
        await fonts.ready
        return Array.from(fonts as Iterable<any>)
          .filter((face) => face.status === 'loaded')
          .map((face) => String(face.family).replace(/["']/g, ''))
      })
      expect(loadedFaces).toContain('KaTeX_Main')
      expect(loadedFaces).toContain('KaTeX_Math')

      // The actions show on hover (or focus inside the message: the link has it now), not before.
      const actions = answer.getByTestId('message-actions')
      await page.getByTestId('composer-input').focus()
      await page.mouse.move(2, 790)
      await expect.poll(() => opacity(actions)).toBe('0')
      await answer.hover()
      await expect.poll(() => opacity(actions)).toBe('1')
      // The screenshot at the size of the other docs screenshots, the table scrolled back to its start.
      await page.setViewportSize({ width: 1280, height: 800 })
      await box.evaluate((element: any) => element.scrollTo(0, 0))
      await answer.hover()
      await settled(page)
      await page.screenshot({ path: join(screenshotDir, `chat-table-${language}-${theme}.png`) })
      await page.setViewportSize({ width: 700, height: 800 })

      // Copy the answer: the Markdown source, exactly; "Copied" for a moment, then Copy again.
      const copy = answer.getByTestId('message-copy')
      expect(await copy.getAttribute('aria-label')).toBe(t.copyAnswer)
      await copy.click()
      await expect.poll(() => copy.getAttribute('data-state')).toBe('copied')
      expect(await copy.innerText()).toBe(t.copied)
      expect(await copy.getAttribute('aria-label')).toBe(t.copied)
      expect(await actions.getByRole('status').innerText()).toBe(t.copied)
      expect(await clipboard(page)).toBe(ANSWER)
      await expect.poll(() => copy.getAttribute('data-state'), { timeout: 5000 }).toBe('idle')

      // The question, by keyboard only: focusing its Copy shows the row, Enter copies the text as sent.
      const question = page.getByTestId('message-user').last()
      const questionActions = question.getByTestId('message-actions')
      await page.getByTestId('composer-input').focus()
      await page.mouse.move(2, 790)
      await expect.poll(() => opacity(questionActions)).toBe('0')
      const copyQuestion = question.getByTestId('message-copy')
      expect(await copyQuestion.getAttribute('aria-label')).toBe(t.copyQuestion)
      await copyQuestion.focus()
      await expect.poll(() => opacity(questionActions)).toBe('1')
      await page.keyboard.press('Enter')
      await expect.poll(() => copyQuestion.getAttribute('data-state')).toBe('copied')
      expect(await clipboard(page)).toBe(t.question)
      await page.keyboard.press('Shift+Tab') // still reachable: focus moves within the page, not lost
      await page.keyboard.press('Tab')
      expect(await copyQuestion.evaluate((element: any) => (globalThis as any).document.activeElement === element)).toBe(true)

      // When the Clipboard API refuses, the fallback still copies.
      await page.evaluate(() => {
        (globalThis as any).navigator.clipboard.writeText = () => Promise.reject(new Error('refused'))
      })
      await answer.hover()
      await copy.click()
      await expect.poll(() => copy.getAttribute('data-state')).toBe('copied')
      expect(await clipboard(page)).toBe(ANSWER)

      expect(cspViolations).toEqual([])
    })
  }
})
