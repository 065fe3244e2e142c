/**
 * Questions and news for a person who is not looking at DeskClaw (docs/risk.md, "Answering a
 * question"): whenever no DeskClaw window has the focus, a question also comes as a native dialog
 * (with the same answers as the modal) and a notification; the dialog closes itself when the
 * question is answered elsewhere or times out; a question whose text had to be shortened offers no
 * "allow" at all — only "open in DeskClaw" and deny. Runs that finish or fail while nobody looks
 * send a notification. Pure: Electron is behind the ports, so every rule here is unit-tested.
 */
import { previewAsText, type AgentEventOf, type BridgeEvent, type ToolMessages } from '../../shared'

type Question = AgentEventOf<'approval_requested'>
type Language = 'en' | 'zh-CN'

export type NativeAnswer = 'allow_once' | 'allow_conversation' | 'allow_always' | 'deny' | 'deny_with_reason' | 'open'

export interface NativeDialogSpec {
  title: string
  message: string
  detail: string
  buttons: string[]
  /** What each button means, by index. */
  answers: NativeAnswer[]
  defaultId: number
  cancelId: number
  /** True when some of the question's text did not fit: then nothing in the dialog can allow it. */
  shortened: boolean
}

export interface NativeNotice {
  title: string
  body: string
  conversationId: string
}

export interface NativeApprovalPorts {
  /** True when a DeskClaw window (main or palette) has the keyboard focus. */
  anyWindowFocused(): boolean
  /** Shows the dialog; resolves with the chosen button's index, or cancelId when `signal` closed it. */
  showDialog(spec: NativeDialogSpec, signal: AbortSignal): Promise<number>
  respond(approvalId: string, answer: 'allow_once' | 'allow_conversation' | 'allow_always' | 'deny', options: { reason?: string; via?: 'dialog'; bindingHash: string }): void
  /** Brings the main window forward on the conversation, where the modal shows the question in full. */
  openInApp(conversationId: string): void
  notify(notice: NativeNotice): void
  language(): Language
  messagesOf(tool: string): ToolMessages | undefined
}

/** A field longer than this, or a detail longer than DETAIL_LIMIT, is shortened. */
export const FIELD_LIMIT = 600
export const DETAIL_LIMIT = 2_000

const TEXT = {
  en: {
    allowOnce: 'Allow once',
    allowConversation: 'Allow for this conversation',
    allowAlways: 'Always allow',
    deny: 'Deny',
    denyWithReason: 'Deny with a reason…',
    open: 'Open in DeskClaw',
    shortened: 'The request is too long to show here in full, so it cannot be allowed from this dialog. Open DeskClaw to read all of it.',
    asks: 'DeskClaw asks',
    finished: 'Task finished',
    failed: 'Task failed',
    waiting: 'DeskClaw is waiting for your approval'
  },
  'zh-CN': {
    allowOnce: '允许一次',
    allowConversation: '本次对话内允许',
    allowAlways: '始终允许',
    deny: '拒绝',
    denyWithReason: '拒绝并说明原因…',
    open: '在 DeskClaw 中打开',
    shortened: '请求内容过长，无法在此完整显示，因此不能在此对话框中允许。请打开 DeskClaw 查看全部内容。',
    asks: 'DeskClaw 请求确认',
    finished: '任务已完成',
    failed: '任务失败',
    waiting: 'DeskClaw 正在等待你的批准'
  }
} as const

/** The dialog for one question, in the user's language. */
export function buildApprovalDialog(question: Question, messages: ToolMessages | undefined, language: Language): NativeDialogSpec {
  const t = TEXT[language]
  const preview = previewAsText(question.preview, messages, language)
  let shortened = false
  const fields = preview.fields.map((field) => {
    if (field.value.length <= FIELD_LIMIT) return `${field.label}: ${field.value}`
    shortened = true
    return `${field.label}: ${field.value.slice(0, FIELD_LIMIT)}…`
  })
  const findings = question.assessment.findings.filter((finding) => finding.verdict !== 'allow').map((finding) => `• ${finding.message}`)
  let detail = [...fields, '', ...findings].join('\n').trim()
  if (detail.length > DETAIL_LIMIT) {
    shortened = true
    detail = `${detail.slice(0, DETAIL_LIMIT)}…`
  }
  if (shortened) {
    return {
      title: 'DeskClaw',
      message: `${t.asks}: ${preview.title}`,
      detail: `${detail}\n\n${t.shortened}`,
      buttons: [t.open, t.deny],
      answers: ['open', 'deny'],
      defaultId: 0,
      cancelId: 1,
      shortened
    }
  }
  const answers: NativeAnswer[] = ['deny', 'deny_with_reason', 'allow_once']
  // A message send is approved one at a time (docs/desktop.md, "Sending messages").
  if (!question.onlyOnce) answers.push('allow_conversation')
  if (question.assessment.alwaysRule && !question.onlyOnce) answers.push('allow_always')
  const label: Record<NativeAnswer, string> = {
    allow_once: t.allowOnce,
    allow_conversation: t.allowConversation,
    allow_always: t.allowAlways,
    deny: t.deny,
    deny_with_reason: t.denyWithReason,
    open: t.open
  }
  return {
    title: 'DeskClaw',
    message: `${t.asks}: ${preview.title} — ${question.reason}`,
    detail,
    buttons: answers.map((answer) => label[answer]),
    answers,
    defaultId: 0, // Enter denies: allowing takes a deliberate choice
    cancelId: 0,
    shortened
  }
}

/** Follows the bus: asks natively while nobody looks at DeskClaw, closes what was answered elsewhere, and tells about finished runs. */
export class NativeApprovals {
  private readonly open = new Map<string, AbortController>()

  constructor(private readonly ports: NativeApprovalPorts) {}

  handle(bridgeEvent: BridgeEvent): void {
    if (bridgeEvent.kind !== 'agent') return
    const event = bridgeEvent.event
    const t = TEXT[this.ports.language()]
    if (event.type === 'approval_requested') {
      if (this.ports.anyWindowFocused()) return
      this.ports.notify({ title: t.waiting, body: `${event.tool}: ${event.reason}`, conversationId: event.conversationId })
      void this.ask(event)
    } else if (event.type === 'approval_resolved') {
      // Answered in the window, the browser or the terminal, or timed out: the dialog goes away.
      this.open.get(event.approvalId)?.abort()
      this.open.delete(event.approvalId)
    } else if ((event.type === 'run_completed' || event.type === 'run_failed') && !this.ports.anyWindowFocused()) {
      const body = event.type === 'run_completed' ? firstLine(event.text) : event.error.message
      this.ports.notify({ title: event.type === 'run_completed' ? t.finished : t.failed, body, conversationId: event.conversationId })
    }
  }

  /** Closes every open dialog (the app is quitting). */
  dispose(): void {
    for (const controller of this.open.values()) controller.abort()
    this.open.clear()
  }

  private async ask(question: Question): Promise<void> {
    const spec = buildApprovalDialog(question, this.ports.messagesOf(question.tool), this.ports.language())
    const controller = new AbortController()
    this.open.set(question.approvalId, controller)
    let index: number
    try {
      index = await this.ports.showDialog(spec, controller.signal)
    } catch {
      index = spec.cancelId
    }
    if (controller.signal.aborted) return // answered elsewhere meanwhile: this click means nothing
    this.open.delete(question.approvalId)
    const answer = spec.answers[index] ?? 'deny'
    const bindingHash = question.bindingHash
    if (answer === 'open' || answer === 'deny_with_reason') this.ports.openInApp(question.conversationId)
    else if (answer === 'deny') this.ports.respond(question.approvalId, 'deny', { reason: 'Denied in the dialog.', via: 'dialog', bindingHash })
    else if (!spec.shortened) this.ports.respond(question.approvalId, answer, { via: 'dialog', bindingHash })
  }
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? ''
  return line.length > 200 ? `${line.slice(0, 200)}…` : line
}
