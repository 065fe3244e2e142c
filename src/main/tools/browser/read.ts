import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { htmlToMarkdown } from '../web'
import { attempt, BROWSER_MESSAGES, type BrowserToolServices } from './common'
import { noSink, untrusted } from '../../provenance'

export function createBrowserReadTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_read',
    repeat: 'may-differ',
    description: "The current page's readable content as Markdown (the article without menus and scripts: headings, paragraphs, lists, links), for reading; use browser_snapshot to act on it.",
    shortDescription: `The current page's readable content as Markdown, for reading (use browser_snapshot to act on it).`,
    category: 'browser',
    access: 'read',
    source: untrusted('browser_page'),
    sink: noSink,
    input: z.object({}),
    summary: () => text('summary'),
    preview: () => ({ title: text('title'), fields: [] }),
    messages: {
      en: { ...BROWSER_MESSAGES.en, title: 'Read the page', summary: 'page text', 'result.read': 'Read "{title}" ({chars} characters).' },
      'zh-CN': { ...BROWSER_MESSAGES['zh-CN'], title: '阅读网页', summary: '网页文字', 'result.read': '已阅读“{title}”（{chars} 个字符）。' }
    },
    truncationHint: 'The page is long: follow a link to a narrower page, or use browser_snapshot.',
    run: (_args, ctx) =>
      attempt(async () => {
        const session = await services.browser.session(ctx.conversationId)
        const page = await session.page()
        const title = session.scrub(await page.title())
        // The page as it is now (scripts ran), through the web tools' converter (docs/tools.md, "Web fetch");
        // the visible text when it finds nothing.
        const converted = (await htmlToMarkdown(await page.content(), page.url())).markdown
        const visible = converted.trim() !== '' ? converted : await page.locator('body').innerText().catch(() => '')
        const body = session.scrub(visible.replace(/\n{3,}/g, '\n\n').trim())
        const said = `# ${title || session.scrub(page.url())}\n\n${session.scrub(page.url())}\n\n${body}`
        return withDisplay(ok(said), text('result.read', { title, chars: body.length }))
      })
  })
}
