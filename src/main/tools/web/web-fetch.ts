import { z } from 'zod'
import { defineTool, fail, ok, text, withDisplay } from '../define-tool'
import { WEB_LABELS, WEB_RESULTS, type WebToolServices } from './common'
import { decodeBody, sendRequest } from './http-client'
import { htmlToMarkdown } from './readable'
import { failureOutput, previewAddresses } from './outcome'
import { untrusted } from '../../provenance'

/**
 * web_fetch (docs/tools.md): GET a page and give the model its readable text as Markdown. A read:
 * a site allowed in Settings or rules runs without asking; another asks once, and "allow for this
 * conversation" covers that site (docs/risk.md, "Network").
 */
export function createWebFetchTool(services: WebToolServices) {
  return defineTool({
    name: 'web_fetch',
    repeat: 'may-differ',
    description:
      'Fetch a web page (GET, http or https) and return its readable content as Markdown (the article, without menus and scripts); ' +
      'JSON and plain text come back as they are. Redirects are followed. Use http_request for other methods, headers or a body.',
    shortDescription: `Fetch "url" (GET, http or https) and get the page's readable content as Markdown, JSON and text as they are.`,
    category: 'network',
    access: 'read',
    source: untrusted('web_page'),
    sink: { may: ['send'], of: (args) => ({ kind: 'send', via: 'network', destination: args.url }) },
    input: z.object({ url: z.string().min(1).max(4000).describe('The http(s) URL to fetch') }),
    subjectKind: 'url',
    subject: (args) => ({ value: args.url, arg: 'url' }),
    grantScope: (args) => `web-site:${siteOf(args.url)}`,
    summary: (args) => args.url,
    preview: async (args) => {
      const { webMaxBytes, webTimeoutSec } = services.settings()
      return {
        title: text('title'),
        fields: [
          { label: text('url'), value: args.url, arg: 'url' },
          await previewAddresses(services, args.url),
          { label: text('limits'), value: `${webMaxBytes} B, ${webTimeoutSec} s`, display: text('limitsValue', { bytes: webMaxBytes, seconds: webTimeoutSec }) }
        ]
      }
    },
    messages: {
      en: {
        ...WEB_LABELS.en,
        ...WEB_RESULTS.en,
        title: 'Fetch a web page',
        'result.fetched': 'Fetched {url} ({status}): {chars} characters of Markdown.',
        'result.notText': '{url} is {type}, not a page or text.',
        'result.httpError': '{url} answered {status}.'
      },
      'zh-CN': {
        ...WEB_LABELS['zh-CN'],
        ...WEB_RESULTS['zh-CN'],
        title: '获取网页',
        'result.fetched': '已获取 {url}（{status}）：{chars} 个字符的 Markdown。',
        'result.notText': '{url} 是 {type}，不是网页或文本。',
        'result.httpError': '{url} 返回了 {status}。'
      }
    },
    truncationHint: 'The page was cut; fetch a more specific URL (a section or a raw file) to read less at a time.',
    run: async (args, ctx) => {
      const response = await sendRequest(services, 'web_fetch', { method: 'GET', url: args.url, headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.1' } }, ctx.signal)
      if (!response.ok) return failureOutput(response, services)
      const type = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
      const redirected = response.hops.length > 1 ? `Redirected: ${response.hops.join(' → ')}\n` : ''
      const cut = response.truncated ? `\n\n[The page was cut at ${response.body.length} bytes, the size limit.]` : ''
      const head = `URL: ${response.url}\n${redirected}Status: ${response.status} ${response.statusText}\n`
      let body: string
      let title = ''
      if (type === '' || type === 'text/html' || type === 'application/xhtml+xml') {
        const page = await htmlToMarkdown(decodeBody(response), response.url)
        body = page.markdown
        title = page.title
      } else if (type.startsWith('text/') || /[/+](json|xml|javascript|yaml|csv)$/.test(type)) {
        body = decodeBody(response)
      } else {
        return withDisplay(fail(`${head}${response.url} is ${type}, not a page or text; it was not read.`), text('result.notText', { url: response.url, type }))
      }
      const said = `${head}${title ? `Title: ${title}\n` : ''}\n${body}${cut}`
      if (response.status >= 400) return withDisplay(fail(said), text('result.httpError', { url: response.url, status: response.status }))
      return withDisplay(ok(said), text('result.fetched', { url: response.url, status: response.status, chars: body.length }))
    }
  })
}

/** The scheme and host a conversation grant covers (every page of the site). */
function siteOf(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}`
  } catch {
    return url
  }
}
