import { z } from 'zod'
import { natureOf } from '../../browser'
import { defineTool, text } from '../define-tool'
import { attempt, BROWSER_MESSAGES, confirmed, denied, guardFor, pageState, submitPreview, type BrowserToolServices } from './common'
import { sendsTo, untrusted } from '../../provenance'

export function createBrowserPressTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_press',
    repeat: 'may-differ',
    description:
      'Press a key or a combination in the current page, where the focus is: Enter, Tab, Escape, ArrowDown, PageDown, Control+A … ' +
      'Enter in a form field sends the form, which asks the person first.',
    shortDescription: 'Press "key" ("Enter", "Shift+Tab", "Control+a") where the focus is on the current page; Enter in a form sends it.',
    category: 'browser',
    access: 'execute',
    source: untrusted('browser_page'),
    sink: sendsTo('form', () => null),
    input: z.object({ key: z.string().min(1).max(60).regex(/^[\w+-]+$/).describe('Playwright key name, e.g. "Enter", "Shift+Tab", "Control+a"') }),
    confirmsDuringRun: true,
    summary: (args) => args.key,
    preview: (args) => ({ title: text('title'), fields: [{ label: text('keys'), value: args.key, code: true }] }),
    messages: {
      en: { ...BROWSER_MESSAGES.en, title: 'Press a key in the browser', keys: 'Keys' },
      'zh-CN': { ...BROWSER_MESSAGES['zh-CN'], title: '在浏览器中按键', keys: '按键' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const session = await services.browser.session(ctx.conversationId)
        const page = await session.page()
        const focused = page.locator('*:focus')
        const nature = /(^|\+)Enter$/i.test(args.key) && (await focused.count()) === 1 ? await natureOf(focused) : null
        const submits = nature?.submits === true
        if (submits && nature?.formAction && !(await confirmed(ctx, submitPreview(nature.formAction, [])))) return denied(`sending the form to ${nature.formAction}`)
        const { notes } = await session.during(guardFor(ctx, { submissionApproved: submits }), async () => {
          await page.keyboard.press(args.key)
          await page.waitForLoadState('domcontentloaded').catch(() => {})
        })
        return pageState(session, `Pressed ${args.key}.`, notes)
      })
  })
}
