import { z } from 'zod'
import { describeTarget, locate, natureOf, TargetSchema } from '../../browser'
import { defineTool, fail, text, withDisplay } from '../define-tool'
import { attempt, BROWSER_MESSAGES, confirmed, denied, guardFor, pageState, submitPreview, type BrowserToolServices } from './common'
import { sendsTo, untrusted } from '../../provenance'

const HIDDEN = '••••'

/** A target whose words name a password: `text` for it is hidden too, in case the model put a password there. */
const PASSWORD_WORDS = /pass(word|code|phrase)?|pwd|\bpin\b|secret|密码|口令/i

function namesPassword(target: unknown): boolean {
  if (typeof target !== 'object' || target === null) return false
  return Object.values(target).some((value) => typeof value === 'string' && PASSWORD_WORDS.test(value))
}

export function createBrowserTypeTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_type',
    repeat: 'may-differ',
    description:
      'Type into a form field of the current page (replacing what is in it), named by label, role and name, placeholder or a ref from browser_snapshot. ' +
      'Put a password or other secret in `secret`, never in `text`: it is typed, never stored or shown, and always asks the person first. ' +
      '`submit` presses Enter afterwards, which sends the form (that asks too).',
    shortDescription: 'Type "text" into the form field "target" (replacing its content); a password goes in "secret", never "text"; "submit" presses Enter.',
    category: 'browser',
    access: 'execute',
    source: untrusted('browser_page'),
    sink: sendsTo('typing', () => null),
    input: z
      .object({
        target: TargetSchema.describe('The field: { "label": "Email" }, { "role": "textbox", "name": "Search" }, { "ref": "e7" }'),
        text: z.string().max(20_000).optional().describe('What to type (not for passwords)'),
        secret: z.string().min(1).max(1000).optional().describe('A password or other secret to type: never stored or shown'),
        submit: z.boolean().optional().describe('Press Enter afterwards to send the form')
      })
      .refine((args) => (args.text === undefined) !== (args.secret === undefined), { message: 'Give exactly one of text or secret.' }),
    // The secret lives only in this call's memory: events, approvals and history get •••• (docs/tools.md, "Secrets in arguments").
    redact: (args) => ({
      ...args,
      ...('secret' in args ? { secret: HIDDEN } : {}),
      ...('text' in args && namesPassword(args.target) ? { text: HIDDEN } : {})
    }),
    confirmsDuringRun: true,
    summary: (args) => `${describeTarget(args.target)} ← ${args.secret !== undefined || namesPassword(args.target) ? HIDDEN : JSON.stringify(args.text)}${args.submit ? ' ⏎' : ''}`,
    preview: (args) => ({
      title: text('title'),
      fields: [
        { label: text('element'), value: describeTarget(args.target) },
        { label: text('value'), value: args.secret !== undefined || namesPassword(args.target) ? HIDDEN : (args.text ?? '') }
      ]
    }),
    messages: {
      en: {
        ...BROWSER_MESSAGES.en,
        title: 'Type in the browser',
        'result.notFound': 'The field was not found or is not unique: {target}',
        'result.passwordAsText': 'This is a password field: nothing was typed. The value must be given as a secret.'
      },
      'zh-CN': {
        ...BROWSER_MESSAGES['zh-CN'],
        title: '在浏览器中输入',
        'result.notFound': '未找到该字段或它不唯一：{target}',
        'result.passwordAsText': '这是密码字段：未输入任何内容。该值必须作为 secret 提供。'
      }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const session = await services.browser.session(ctx.conversationId)
        const page = await session.page()
        const found = await locate(page, args.target)
        if (!found.ok) return withDisplay(fail(found.reason), text('result.notFound', { target: describeTarget(args.target) }))
        const nature = await natureOf(found.locator)
        if (nature.password && args.secret === undefined) {
          return withDisplay(fail('This is a password field: nothing was typed. Give the value as `secret`, not `text`.'), text('result.passwordAsText'))
        }
        if (args.secret !== undefined) {
          session.rememberSecret(args.secret)
          // Every time: no grant or rule answers a password (docs/risk.md, "Browser").
          const asked = await confirmed(ctx, {
            title: text('askSecret'),
            fields: [
              { label: text('element'), value: describeTarget(args.target) },
              { label: text('url'), value: session.scrub(page.url()), code: true },
              { label: text('value'), value: HIDDEN },
              { label: text('why'), value: '', display: text('secretNote') }
            ]
          })
          if (!asked) return denied('typing the password')
        }
        const submits = args.submit === true && nature.submits
        if (submits && nature.formAction && !(await confirmed(ctx, submitPreview(nature.formAction, [])))) return denied(`sending the form to ${nature.formAction}`)
        const { notes } = await session.during(guardFor(ctx, { submissionApproved: submits }), async () => {
          await found.locator.fill(args.secret ?? args.text ?? '')
          if (args.submit) {
            await found.locator.press('Enter')
            await page.waitForLoadState('domcontentloaded').catch(() => {})
          }
        })
        const what = args.secret !== undefined ? 'the secret' : `${(args.text ?? '').length} characters`
        return pageState(session, `Typed ${what} into ${describeTarget(args.target)}${args.submit ? ' and pressed Enter' : ''}.`, notes)
      })
  })
}
