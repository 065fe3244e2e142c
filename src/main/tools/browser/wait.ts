import { z } from 'zod'
import { defineTool, fail, text, withDisplay } from '../define-tool'
import { attempt, BROWSER_MESSAGES, pageState, type BrowserToolServices } from './common'
import { noSink, untrusted } from '../../provenance'

export function createBrowserWaitTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_wait',
    repeat: 'may-differ',
    description: 'Wait until a text appears on the current page (after a click that loads something), up to a timeout.',
    shortDescription: 'Wait until "text" is visible on the current page, at most "timeout_s" seconds (default 15).',
    category: 'browser',
    access: 'read',
    source: untrusted('browser_page'),
    sink: noSink,
    input: z.object({
      text: z.string().min(1).max(300).describe('Visible text to wait for'),
      timeout_s: z.number().min(1).max(120).default(15).describe('Seconds to wait at most (default 15)')
    }),
    summary: (args) => JSON.stringify(args.text),
    preview: (args) => ({ title: text('title'), fields: [{ label: text('value'), value: args.text }] }),
    messages: {
      en: { ...BROWSER_MESSAGES.en, title: 'Wait for text in the browser', 'result.timeout': '"{text}" did not appear within {seconds} s.' },
      'zh-CN': { ...BROWSER_MESSAGES['zh-CN'], title: '等待浏览器中出现文字', 'result.timeout': '“{text}”在 {seconds} 秒内没有出现。' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const session = await services.browser.session(ctx.conversationId)
        const page = await session.page()
        try {
          await page.getByText(args.text).first().waitFor({ state: 'visible', timeout: args.timeout_s * 1000 })
        } catch {
          return withDisplay(fail(`"${args.text}" did not appear within ${args.timeout_s} s.`), text('result.timeout', { text: args.text, seconds: args.timeout_s }))
        }
        return pageState(session, `"${args.text}" is on the page.`)
      })
  })
}
