import { z } from 'zod'
import { defineTool, fail, ok, text, withDisplay } from '../define-tool'
import { WEB_LABELS, WEB_RESULTS, type WebToolServices } from './common'
import { redactHeaders, redactText } from './headers'
import { decodeBody, sendRequest } from './http-client'
import { failureOutput, previewAddresses } from './outcome'
import { untrusted } from '../../provenance'

const Methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const

/** The body shown in an approval: enough to see what is sent. */
const PREVIEW_BODY_CHARS = 2000

/**
 * http_request (docs/tools.md): any method, headers and a body. It may change things on the
 * other side, so it asks in supervised mode every time (docs/risk.md, "Network"); header values
 * that are credentials are masked in the store, the timeline and the approval (`redact`), and in
 * what comes back should the server echo them.
 */
export function createHttpRequestTool(services: WebToolServices) {
  return defineTool({
    name: 'http_request',
    repeat: 'may-differ',
    description:
      'Send an HTTP request (any method, headers, a text body) to an http(s) URL and return the status, headers and body. ' +
      'Asks the user first. For reading a web page use web_fetch.',
    shortDescription: 'Send an HTTP request ("method", "headers", text "body") to "url" and get the status, headers and body; asks first.',
    category: 'network',
    access: 'write',
    source: untrusted('web_page'),
    sink: { may: ['send'], of: (args) => ({ kind: 'send', via: 'network', destination: args.url }) },
    input: z.object({
      url: z.string().min(1).max(4000).describe('The http(s) URL'),
      method: z.enum(Methods).default('GET').describe('HTTP method (default GET)'),
      headers: z.record(z.string().min(1).max(200), z.string().max(8000)).default({}).describe('Request headers'),
      body: z.string().max(1_000_000).optional().describe('Request body (text; set content-type in headers)')
    }),
    subjectKind: 'url',
    subject: (args) => ({ value: args.url, arg: 'url' }),
    redact: (args) => {
      const headers = typeof args.headers === 'object' && args.headers !== null ? (args.headers as Record<string, string>) : {}
      const hide = (value: unknown) => (typeof value === 'string' ? redactText(value, headers) : value)
      return { ...args, url: hide(args.url), headers: redactHeaders(headers), ...(args.body !== undefined ? { body: hide(args.body) } : {}) }
    },
    summary: (args) => `${args.method} ${redactText(args.url, args.headers)}`,
    preview: async (args) => {
      const shown = redactHeaders(args.headers)
      const headerLines = Object.entries(shown).map(([name, value]) => `${name}: ${value}`).join('\n')
      const body = args.body === undefined ? null : redactText(args.body, args.headers)
      return {
        title: text('title'),
        fields: [
          { label: text('method'), value: args.method, arg: 'method' },
          { label: text('url'), value: redactText(args.url, args.headers), arg: 'url' },
          await previewAddresses(services, args.url),
          ...(headerLines ? [{ label: text('headers'), value: headerLines }] : []),
          ...(body !== null ? [{ label: text('body'), value: body.length > PREVIEW_BODY_CHARS ? `${body.slice(0, PREVIEW_BODY_CHARS)}…` : body }] : [])
        ]
      }
    },
    messages: {
      en: { ...WEB_LABELS.en, ...WEB_RESULTS.en, title: 'Send an HTTP request', 'result.answered': '{method} {url}: {status}, {bytes} bytes.' },
      'zh-CN': { ...WEB_LABELS['zh-CN'], ...WEB_RESULTS['zh-CN'], title: '发送 HTTP 请求', 'result.answered': '{method} {url}：{status}，{bytes} 字节。' }
    },
    run: async (args, ctx) => {
      const hide = (value: string) => redactText(value, args.headers)
      const response = await sendRequest(services, 'http_request', { method: args.method, url: args.url, headers: args.headers, body: args.body }, ctx.signal)
      if (!response.ok) return failureOutput(response, services, hide)
      const headers = Object.entries(redactHeaders(response.headers)).map(([name, value]) => `${name}: ${hide(value)}`).join('\n')
      const cut = response.truncated ? `\n\n[The body was cut at ${response.body.length} bytes, the size limit.]` : ''
      const url = hide(response.url)
      const redirected = response.hops.length > 1 ? `Redirected: ${response.hops.map(hide).join(' → ')}\n` : ''
      const said = `${args.method} ${url}\n${redirected}Status: ${response.status} ${response.statusText}\n${headers}\n\n${hide(decodeBody(response))}${cut}`
      const line = text('result.answered', { method: args.method, url, status: response.status, bytes: response.body.length })
      return withDisplay(response.status >= 400 ? fail(said) : ok(said), line)
    }
  })
}
