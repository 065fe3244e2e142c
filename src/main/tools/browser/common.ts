/** What the browser tools share: the service, the mid-run questions, failures in words, and the page's state in a line. */
import { errorMessage, type ApprovalPreview } from '../../../shared'
import { BrowserUnavailableError, type BrowserCallGuard, type BrowserService, type BrowserSession, type CallNotes } from '../../browser'
import { writeWorkspaceFile } from '../../workspace'
import { fail, ok, text, withDisplay, type ToolContext, type ToolOutput } from '../define-tool'

export interface BrowserToolServices {
  browser: BrowserService
}

/** Labels and result lines every browser tool may use: spread into each browser tool's messages. */
export const BROWSER_MESSAGES = {
  en: {
    url: 'Address',
    element: 'Element',
    value: 'Value',
    fields: 'Fields',
    file: 'File',
    why: 'Why',
    newSite: 'This conversation has not visited this site yet.',
    formSubmit: 'The page sends a form to this address.',
    downloadInto: 'The file would be saved into the workspace under downloads/.',
    secretNote: 'A password: it is typed into the page and never stored or shown.',
    askSite: 'Open a new site in the browser',
    askSubmit: 'Send a form from the browser',
    askDownload: 'Save a download from the browser',
    askSecret: 'Type a password into the browser',
    'result.unavailable': 'No browser could be started: {reason}',
    'result.failed': 'The browser action did not succeed; the output below says why.',
    'result.denied': 'Not done: the person did not allow it.',
    'result.at': 'Done. The page is now "{title}" ({url}).',
    'result.blocked': 'Stopped: the page tried to go to {url}, which was not allowed.'
  },
  'zh-CN': {
    url: '地址',
    element: '元素',
    value: '值',
    fields: '字段',
    file: '文件',
    why: '原因',
    newSite: '此对话尚未访问过该网站。',
    formSubmit: '页面将把表单发送到此地址。',
    downloadInto: '文件将保存到工作区的 downloads/ 下。',
    secretNote: '这是密码：只会输入到页面中，不会被保存或显示。',
    askSite: '在浏览器中打开新网站',
    askSubmit: '从浏览器发送表单',
    askDownload: '保存浏览器下载的文件',
    askSecret: '在浏览器中输入密码',
    'result.unavailable': '无法启动浏览器：{reason}',
    'result.failed': '浏览器操作未成功，原因见下方输出。',
    'result.denied': '未执行：用户没有允许。',
    'result.at': '完成。当前页面为“{title}”（{url}）。',
    'result.blocked': '已阻止：页面试图前往未获允许的 {url}。'
  }
} as const

/** Asks the person mid-run (the tool confirms during its run); without a way to ask, the answer is no. */
export async function confirmed(ctx: ToolContext, preview: ApprovalPreview): Promise<boolean> {
  if (!ctx.confirm) return false
  return (await ctx.confirm(preview)).allowed
}

export const sitePreview = (url: string): ApprovalPreview => ({
  title: text('askSite'),
  fields: [
    { label: text('url'), value: url, code: true },
    { label: text('why'), value: '', display: text('newSite') }
  ]
})

export const submitPreview = (url: string, fields: string[]): ApprovalPreview => ({
  title: text('askSubmit'),
  fields: [
    { label: text('url'), value: url, code: true },
    ...(fields.length > 0 ? [{ label: text('fields'), value: fields.join(', ') }] : []),
    { label: text('why'), value: '', display: text('formSubmit') }
  ]
})

/** The questions a page's own navigations and downloads raise while this call runs (docs/risk.md, "Browser"). */
export function guardFor(ctx: ToolContext, options: { submissionApproved?: boolean } = {}): BrowserCallGuard {
  return {
    submissionApproved: options.submissionApproved ?? false,
    confirmSite: (url) => confirmed(ctx, sitePreview(url)),
    confirmSubmission: (url, fields) => confirmed(ctx, submitPreview(url, fields)),
    confirmDownload: (name, url) =>
      confirmed(ctx, {
        title: text('askDownload'),
        fields: [
          { label: text('file'), value: name, code: true },
          { label: text('url'), value: url, code: true },
          { label: text('why'), value: '', display: text('downloadInto') }
        ]
      }),
    // Through the race-free workspace write: a link planted in downloads/ cannot send the file elsewhere.
    saveDownload: async (name, data) => {
      const safe = name.replace(/[/\\\0]/g, '_').replace(/^\.+/, '_') || 'download'
      const wrote = await writeWorkspaceFile(ctx.workspace, `downloads/${safe}`, data)
      return wrote.ok ? { saved: wrote.display } : { failed: `${wrote.code} (${wrote.path})` }
    }
  }
}

/** Runs the action; a browser that cannot start, or any failure, becomes an error result. */
export async function attempt(action: () => Promise<ToolOutput>): Promise<ToolOutput> {
  try {
    return await action()
  } catch (error) {
    if (error instanceof BrowserUnavailableError) return withDisplay(fail(error.message), text('result.unavailable', { reason: error.message }))
    return withDisplay(fail(errorMessage(error).split('\n')[0] ?? 'The browser action failed.'), text('result.failed'))
  }
}

export const denied = (what: string): ToolOutput => withDisplay(fail(`Not done: the person did not allow ${what}.`), text('result.denied'))

/** Where the tab is after an action, with what the page did on its own; secrets typed in the conversation scrubbed. */
export async function pageState(session: BrowserSession, said: string, notes?: CallNotes): Promise<ToolOutput> {
  const page = await session.page()
  const title = await page.title().catch(() => '')
  const url = page.url()
  const lines = [said, `Now at ${url}${title ? ` — "${title}"` : ''}.`]
  for (const blocked of notes?.blocked ?? []) lines.push(`Blocked a navigation to ${blocked} (not allowed).`)
  for (const download of notes?.downloads ?? []) lines.push(`Download ${download}.`)
  lines.push('Take a browser_snapshot to see the page and its element refs.')
  const shown = session.scrub(lines.join('\n'))
  // A page that tried to go where it was not allowed: the action did not do all it meant to.
  const blocked = notes?.blocked[0]
  if (blocked !== undefined) return withDisplay(fail(shown), text('result.blocked', { url: session.scrub(blocked) }))
  return withDisplay(ok(shown), text('result.at', { title: session.scrub(title), url: session.scrub(url) }))
}
