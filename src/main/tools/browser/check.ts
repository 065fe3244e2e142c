import { z } from 'zod'
import { describeTarget, locate, TargetSchema } from '../../browser'
import { defineTool, fail, text, withDisplay } from '../define-tool'
import { attempt, BROWSER_MESSAGES, guardFor, pageState, type BrowserToolServices } from './common'
import { sendsTo, untrusted } from '../../provenance'

export function createBrowserCheckTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_check',
    repeat: 'may-differ',
    description: 'Tick or clear a checkbox, or choose a radio button, on the current page (by label, role and name, or a ref from browser_snapshot).',
    shortDescription: 'Tick ("checked" true) or clear the checkbox or radio button "target" of the current page.',
    category: 'browser',
    access: 'execute',
    source: untrusted('browser_page'),
    sink: sendsTo('form', () => null),
    input: z.object({
      target: TargetSchema.describe('The box: { "label": "Remember me" }, { "role": "radio", "name": "Express" }'),
      checked: z.boolean().default(true).describe('true ticks it (default), false clears it')
    }),
    confirmsDuringRun: true,
    summary: (args) => `${args.checked ? '☑' : '☐'} ${describeTarget(args.target)}`,
    preview: (args) => ({ title: text('title'), fields: [{ label: text('element'), value: `${args.checked ? '☑' : '☐'} ${describeTarget(args.target)}` }] }),
    messages: {
      en: { ...BROWSER_MESSAGES.en, title: 'Tick a box in the browser', 'result.notFound': 'The box was not found or is not unique: {target}' },
      'zh-CN': { ...BROWSER_MESSAGES['zh-CN'], title: '在浏览器中勾选', 'result.notFound': '未找到该选项或它不唯一：{target}' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const session = await services.browser.session(ctx.conversationId)
        const found = await locate(await session.page(), args.target)
        if (!found.ok) return withDisplay(fail(found.reason), text('result.notFound', { target: describeTarget(args.target) }))
        const { notes } = await session.during(guardFor(ctx), () => found.locator.setChecked(args.checked))
        return pageState(session, `${args.checked ? 'Ticked' : 'Cleared'} ${describeTarget(args.target)}.`, notes)
      })
  })
}
