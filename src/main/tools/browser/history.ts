import { z } from 'zod'
import { defineTool, text } from '../define-tool'
import { attempt, BROWSER_MESSAGES, guardFor, pageState, type BrowserToolServices } from './common'
import { noSink, untrusted } from '../../provenance'

export function createBrowserHistoryTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_history',
    repeat: 'may-differ',
    description: "Go back or forward in the current tab's history, like the browser's arrows.",
    shortDescription: `Go "back" or "forward" in the current tab's history ("direction").`,
    category: 'browser',
    access: 'execute',
    source: untrusted('browser_page'),
    sink: noSink,
    input: z.object({ direction: z.enum(['back', 'forward']).describe('back or forward') }),
    confirmsDuringRun: true,
    summary: (args) => text(args.direction === 'back' ? 'summary.back' : 'summary.forward'),
    preview: (args) => ({ title: text('title'), fields: [{ label: text('direction'), value: args.direction }] }),
    messages: {
      en: { ...BROWSER_MESSAGES.en, title: 'Go back or forward in the browser', direction: 'Direction', 'summary.back': 'back', 'summary.forward': 'forward' },
      'zh-CN': { ...BROWSER_MESSAGES['zh-CN'], title: '浏览器后退或前进', direction: '方向', 'summary.back': '后退', 'summary.forward': '前进' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const session = await services.browser.session(ctx.conversationId)
        const page = await session.page()
        const { value, notes } = await session.during(guardFor(ctx), () =>
          args.direction === 'back' ? page.goBack({ waitUntil: 'domcontentloaded' }) : page.goForward({ waitUntil: 'domcontentloaded' })
        )
        return pageState(session, value === null ? `There is no page to go ${args.direction} to.` : `Went ${args.direction}.`, notes)
      })
  })
}
