import { dialog, type BrowserWindow } from 'electron'
import type { AgentEventOf } from '../../shared'
import type { ApprovalBroker } from '../risk'

/**
 * When the main window is hidden or minimised, a question comes as a native dialog
 * (DESIGN §4) so it is never waiting unseen until the timeout denies it.
 */
export async function askWithNativeDialog(
  broker: ApprovalBroker,
  question: AgentEventOf<'approval_requested'>,
  parent: BrowserWindow | null
): Promise<void> {
  const detail = question.preview.fields
    .map((field) => `${field.label}: ${field.value.length > 600 ? `${field.value.slice(0, 600)}…` : field.value}`)
    .join('\n')
  const options = {
    type: 'warning' as const,
    title: 'DeskClaw',
    message: `${question.preview.title} — ${question.reason}`,
    detail,
    buttons: ['Deny', 'Allow once'],
    defaultId: 0,
    cancelId: 0,
    noLink: true
  }
  const { response } = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options)
  broker.respond(question.approvalId, response === 1 ? 'allow_once' : 'deny', response === 1 ? undefined : 'Denied in the dialog.')
}
