import { z } from 'zod'
import { siteOf } from '../../browser'
import { defineTool, fail, text, withDisplay } from '../define-tool'
import { attempt, BROWSER_MESSAGES, confirmed, denied, guardFor, pageState, sitePreview, type BrowserToolServices } from './common'
import { untrusted } from '../../provenance'

export function createBrowserOpenTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_open',
    repeat: 'may-differ',
    description:
      "Open a web page (http or https) in this conversation's browser, in the current tab or a new one. " +
      'A site this conversation has not visited asks the person first. Then read it with browser_snapshot or browser_read.',
    shortDescription: `Open "url" (http or https) in this conversation's browser, in the current tab or a "new_tab"; a new site asks first.`,
    category: 'browser',
    access: 'execute',
    source: untrusted('browser_page'),
    sink: { may: ['send'], of: (args) => ({ kind: 'send', via: 'navigation', destination: args.url }) },
    input: z.object({
      url: z.string().min(1).max(4096).describe('The full address, e.g. https://example.com/login'),
      new_tab: z.boolean().optional().describe('Open it in a new tab instead of the current one')
    }),
    subjectKind: 'url',
    subject: (args) => ({ value: args.url, arg: 'url' }),
    // The question is asked in the run, only for a site the conversation has not visited (docs/risk.md, "Browser").
    confirmsDuringRun: true,
    summary: (args) => args.url,
    preview: (args) => ({ title: text('title'), fields: [{ label: text('url'), value: args.url, code: true, arg: 'url' }] }),
    messages: {
      en: { ...BROWSER_MESSAGES.en, title: 'Open a web page', 'result.badUrl': 'Only http and https addresses can be opened: {url}' },
      'zh-CN': { ...BROWSER_MESSAGES['zh-CN'], title: '打开网页', 'result.badUrl': '只能打开 http 和 https 地址：{url}' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        if (siteOf(args.url) === null) return withDisplay(fail(`Only http and https addresses can be opened; "${args.url}" is not one.`), text('result.badUrl', { url: args.url }))
        const session = await services.browser.session(ctx.conversationId)
        if (!session.knows(args.url)) {
          if (!(await confirmed(ctx, sitePreview(args.url)))) return denied(`opening ${args.url}`)
          session.allowSite(args.url)
        }
        const { notes } = await session.during(guardFor(ctx), async () => {
          const page = args.new_tab ? await session.context.newPage() : await session.page()
          if (args.new_tab) session.select(session.pages.indexOf(page))
          await page.goto(args.url, { waitUntil: 'domcontentloaded' })
        })
        return pageState(session, `Opened ${args.url}.`, notes)
      })
  })
}
