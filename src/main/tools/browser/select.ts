import { z } from 'zod'
import { describeTarget, locate, TargetSchema } from '../../browser'
import { defineTool, fail, text, withDisplay } from '../define-tool'
import { attempt, BROWSER_MESSAGES, guardFor, pageState, type BrowserToolServices } from './common'
import { sendsTo, untrusted } from '../../provenance'

export function createBrowserSelectTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_select',
    repeat: 'may-differ',
    description: 'Choose one or more options of a drop-down list (a <select>) on the current page, by the options\' visible labels or values.',
    shortDescription: 'Choose "options" (visible labels or values) in the drop-down "target" of the current page.',
    category: 'browser',
    access: 'execute',
    source: untrusted('browser_page'),
    sink: sendsTo('form', () => null),
    input: z.object({
      target: TargetSchema.describe('The list: { "label": "Country" }, { "role": "combobox", "name": "Size" }, { "ref": "e9" }'),
      options: z.array(z.string().min(1).max(300)).min(1).max(50).describe('Labels or values of the options to choose')
    }),
    confirmsDuringRun: true,
    summary: (args) => `${describeTarget(args.target)} = ${args.options.join(', ')}`,
    preview: (args) => ({ title: text('title'), fields: [{ label: text('element'), value: describeTarget(args.target) }, { label: text('value'), value: args.options.join(', ') }] }),
    messages: {
      en: { ...BROWSER_MESSAGES.en, title: 'Choose in a list in the browser', 'result.notFound': 'The list was not found or is not unique: {target}' },
      'zh-CN': { ...BROWSER_MESSAGES['zh-CN'], title: '在浏览器的列表中选择', 'result.notFound': '未找到该列表或它不唯一：{target}' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const session = await services.browser.session(ctx.conversationId)
        const found = await locate(await session.page(), args.target)
        if (!found.ok) return withDisplay(fail(found.reason), text('result.notFound', { target: describeTarget(args.target) }))
        const { value, notes } = await session.during(guardFor(ctx), async () => {
          // A label first, else a value: what a person reads is what the model names.
          const byLabel = await found.locator.selectOption(args.options.map((label) => ({ label }))).catch(() => null)
          return byLabel ?? found.locator.selectOption(args.options)
        })
        return pageState(session, `Chose ${(value ?? args.options).join(', ')} in ${describeTarget(args.target)}.`, notes)
      })
  })
}
