import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, BROWSER_MESSAGES, type BrowserToolServices } from './common'
import { noSink, untrusted } from '../../provenance'

export function createBrowserScreenshotTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_screenshot',
    repeat: 'may-differ',
    description: 'A screenshot of the current page (the visible part, or the whole page), as an image. Act on elements by role, label or ref, not by what the pixels show.',
    shortDescription: 'A screenshot of the current page (the visible part, or the whole page with "full_page") as an image.',
    category: 'browser',
    access: 'read',
    source: untrusted('browser_page'),
    sink: noSink,
    input: z.object({ full_page: z.boolean().optional().describe('The whole page, not only the visible part') }),
    summary: (args) => (args.full_page ? text('summary.wholePage') : text('summary.visiblePart')),
    preview: () => ({ title: text('title'), fields: [] }),
    messages: {
      en: { ...BROWSER_MESSAGES.en, title: 'Take a screenshot of the page', 'summary.wholePage': 'whole page', 'summary.visiblePart': 'visible part', 'result.screenshot': 'Took a screenshot of "{title}" ({width}×{height} pixels).' },
      'zh-CN': { ...BROWSER_MESSAGES['zh-CN'], title: '截取网页', 'summary.wholePage': '整个网页', 'summary.visiblePart': '可见部分', 'result.screenshot': '已截取“{title}”（{width}×{height} 像素）。' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const session = await services.browser.session(ctx.conversationId)
        const page = await session.page()
        const png = await page.screenshot({ fullPage: args.full_page ?? false, type: 'png' })
        // The PNG header holds the size: width and height at bytes 16 and 20.
        const width = png.readUInt32BE(16)
        const height = png.readUInt32BE(20)
        const title = session.scrub(await page.title())
        return {
          ...withDisplay(ok(`Screenshot of ${session.scrub(page.url())} — "${title}": ${width}×${height} pixels.`), text('result.screenshot', { title, width, height })),
          attachments: [{ kind: 'image', mediaType: 'image/png', data: png, name: 'page.png', width, height }]
        }
      })
  })
}
