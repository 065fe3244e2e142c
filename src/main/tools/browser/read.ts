import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, BROWSER_MESSAGES, type BrowserToolServices } from './common'

export function createBrowserReadTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_read',
    description: "The current page's readable text as Markdown-ish plain text (headings, paragraphs, lists, links), for reading; use browser_snapshot to act on it.",
    category: 'browser',
    access: 'read',
    input: z.object({}),
    summary: () => 'page text',
    preview: () => ({ title: text('title'), fields: [] }),
    messages: {
      en: { ...BROWSER_MESSAGES.en, title: 'Read the page', 'result.read': 'Read "{title}" ({chars} characters).' },
      'zh-CN': { ...BROWSER_MESSAGES['zh-CN'], title: '阅读网页', 'result.read': '已阅读“{title}”（{chars} 个字符）。' }
    },
    truncationHint: 'The page is long: follow a link to a narrower page, or use browser_snapshot.',
    run: (_args, ctx) =>
      attempt(async () => {
        const session = await services.browser.session(ctx.conversationId)
        const page = await session.page()
        const title = session.scrub(await page.title())
        // The text a person sees (innerText keeps line breaks, skips hidden parts and input values).
        const body = session.scrub(await page.locator('body').innerText().catch(() => ''))
        const said = `# ${title || page.url()}\n\n${session.scrub(page.url())}\n\n${body.replace(/\n{3,}/g, '\n\n').trim()}`
        return withDisplay(ok(said), text('result.read', { title, chars: body.length }))
      })
  })
}
