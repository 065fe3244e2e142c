import { dialog, type BrowserWindow } from 'electron'
import { previewAsText, type AgentEventOf, type ToolMessages } from '../../shared'
import type { ApprovalBroker } from '../risk'

/**
 * When the main window is hidden or minimised, a question comes as a native dialog
 * (docs/risk.md) so it is never waiting unseen until the timeout denies it.
 */
export async function askWithNativeDialog(
  broker: ApprovalBroker,
  question: AgentEventOf<'approval_requested'>,
  parent: BrowserWindow | null,
  messages: ToolMessages | undefined
): Promise<void> {
  const preview = previewAsText(question.preview, messages, 'en')
  const fields = preview.fields.map(
    (field) => `${field.label}: ${field.value.length > 600 ? `${field.value.slice(0, 600)}…` : field.value}`
  )
  // The findings are the why: each one, with the part of the input that fired it.
  const findings = question.assessment.findings
    .filter((finding) => finding.verdict !== 'allow')
    .map((finding) => `• ${finding.message}${spanText(question.args, finding.span)}`)
  const detail = [...fields, '', ...findings].join('\n')
  const options = {
    type: 'warning' as const,
    title: 'DeskClaw',
    message: `${preview.title} — ${question.reason}`,
    detail,
    buttons: ['Deny', 'Allow once', 'Allow for this conversation'],
    defaultId: 0,
    cancelId: 0,
    noLink: true
  }
  const { response } = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options)
  const answers = ['deny', 'allow_once', 'allow_conversation'] as const
  const answer = answers[response] ?? 'deny'
  broker.respond(question.approvalId, answer, {
    bindingHash: question.bindingHash,
    ...(answer === 'deny' ? { reason: 'Denied in the dialog.' } : {})
  })
}

function spanText(args: unknown, span: { arg: string; start: number; end: number } | null): string {
  if (!span || !args || typeof args !== 'object') return ''
  const value = (args as Record<string, unknown>)[span.arg]
  if (typeof value !== 'string' || span.end <= span.start) return ''
  const text = value.slice(span.start, span.end)
  return `  ⟶ ${text.length > 80 ? `${text.slice(0, 80)}…` : text}`
}
