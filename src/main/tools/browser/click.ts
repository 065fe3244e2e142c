import { z } from 'zod'
import { describeTarget, locate, natureOf, TargetSchema } from '../../browser'
import { defineTool, fail, text, withDisplay } from '../define-tool'
import { attempt, BROWSER_MESSAGES, confirmed, denied, guardFor, pageState, submitPreview, type BrowserToolServices } from './common'
import { sendsTo, untrusted } from '../../provenance'

export function createBrowserClickTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_click',
    repeat: 'may-differ',
    description:
      'Click an element of the current page, named by a ref from browser_snapshot, or by role and name, label or visible text (never by coordinates). ' +
      'A click that sends a form, leads to a site not visited yet or downloads a file asks the person first.',
    shortDescription: 'Click the element "target" of the current page: {"ref"} from browser_snapshot, {"role","name"}, {"label"} or {"text"}.',
    category: 'browser',
    access: 'execute',
    source: untrusted('browser_page'),
    sink: sendsTo('form', () => null),
    input: z.object({ target: TargetSchema.describe('The element: { "role": "button", "name": "Sign in" }, { "ref": "e12" }, { "text": "More" }') }),
    // Asks in the run, once the element shows what the click would do (docs/risk.md, "Browser").
    confirmsDuringRun: true,
    summary: (args) => describeTarget(args.target),
    preview: (args) => ({ title: text('title'), fields: [{ label: text('element'), value: describeTarget(args.target) }] }),
    messages: {
      en: { ...BROWSER_MESSAGES.en, title: 'Click in the browser', 'result.notFound': 'The element was not found or is not unique: {target}', 'result.upload': 'This is a file field: files are put into it with the upload tool.' },
      'zh-CN': { ...BROWSER_MESSAGES['zh-CN'], title: '在浏览器中点击', 'result.notFound': '未找到该元素或它不唯一：{target}', 'result.upload': '这是文件字段：请用上传工具放入文件。' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const session = await services.browser.session(ctx.conversationId)
        const page = await session.page()
        const found = await locate(page, args.target)
        if (!found.ok) return withDisplay(fail(found.reason), text('result.notFound', { target: describeTarget(args.target) }))
        const nature = await natureOf(found.locator)
        if (nature.fileInput) return withDisplay(fail('This is a file field: put a workspace file into it with browser_upload.'), text('result.upload'))
        if (nature.submits && nature.formAction) {
          if (!(await confirmed(ctx, submitPreview(nature.formAction, [])))) return denied(`sending the form to ${nature.formAction}`)
        }
        // A link to a new site is asked about by the session's guard when the page goes there, after the domain rules.
        const { notes } = await session.during(guardFor(ctx, { submissionApproved: nature.submits }), async () => {
          await found.locator.click()
          await page.waitForLoadState('domcontentloaded').catch(() => {})
        })
        return pageState(session, `Clicked ${describeTarget(args.target)}.`, notes)
      })
  })
}
