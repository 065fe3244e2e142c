import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, BROWSER_MESSAGES, type BrowserToolServices } from './common'
import { noSink, trusted } from '../../provenance'

export function createBrowserCloseTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_close',
    repeat: 'may-differ',
    description: "Close this conversation's browser and all its tabs (its profile, with cookies and logins, stays until the conversation is deleted).",
    shortDescription: `Close this conversation's browser and its tabs (the profile with logins stays).`,
    category: 'browser',
    access: 'execute',
    source: trusted,
    sink: noSink,
    input: z.object({}),
    confirmsDuringRun: true,
    summary: () => text('summary'),
    preview: () => ({ title: text('title'), fields: [] }),
    messages: {
      en: { ...BROWSER_MESSAGES.en, title: 'Close the browser', summary: 'close the browser', 'result.closed': 'The browser is closed.', 'result.notOpen': 'The browser was not open.' },
      'zh-CN': { ...BROWSER_MESSAGES['zh-CN'], title: '关闭浏览器', summary: '关闭浏览器', 'result.closed': '浏览器已关闭。', 'result.notOpen': '浏览器本来就没有打开。' }
    },
    run: (_args, ctx) =>
      attempt(async () => {
        const closed = await services.browser.close(ctx.conversationId)
        return closed ? withDisplay(ok('The browser is closed.'), text('result.closed')) : withDisplay(ok('The browser was not open.'), text('result.notOpen'))
      })
  })
}
