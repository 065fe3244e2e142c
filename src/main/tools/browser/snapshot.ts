import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, BROWSER_MESSAGES, type BrowserToolServices } from './common'
import { noSink, untrusted } from '../../provenance'

export function createBrowserSnapshotTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_snapshot',
    repeat: 'may-differ',
    description:
      'The current page as a compact accessibility tree (roles, names, states, values), each element with a [ref=eN] that browser_click, browser_type, browser_select and browser_check accept as { "ref": "eN" }. ' +
      'Refs are valid until the next snapshot.',
    shortDescription: 'The current page as an accessibility tree whose elements carry refs ("e12") that the other browser tools take as a target.',
    category: 'browser',
    access: 'read',
    source: untrusted('browser_page'),
    sink: noSink,
    input: z.object({}),
    summary: () => text('summary'),
    preview: () => ({ title: text('title'), fields: [] }),
    messages: {
      en: { ...BROWSER_MESSAGES.en, title: 'Read the page\'s structure', summary: 'page snapshot', 'result.snapshot': 'Read the structure of "{title}" ({lines} lines).', 'result.noPage': 'No page is open.' },
      'zh-CN': { ...BROWSER_MESSAGES['zh-CN'], title: '读取页面结构', summary: '页面结构', 'result.snapshot': '已读取“{title}”的结构（{lines} 行）。', 'result.noPage': '没有打开的页面。' }
    },
    truncationHint: 'The page is long: read a part with browser_read, or act on what is shown and take a new snapshot.',
    run: (_args, ctx) =>
      attempt(async () => {
        const session = await services.browser.session(ctx.conversationId)
        const page = await session.page()
        const title = session.scrub(await page.title())
        const tree = session.scrub(await page.ariaSnapshot({ mode: 'ai' }))
        const tabs = session.pages.length > 1 ? `\n(${session.pages.length} tabs open; this is tab ${session.currentIndex + 1}: see browser_tabs)` : ''
        const said = `Page: ${session.scrub(page.url())} — "${title}"${tabs}\n\n${tree}`
        return withDisplay(ok(said), text('result.snapshot', { title, lines: tree.split('\n').length }))
      })
  })
}
