import type {
  AgentEvent,
  ChatMessage,
  ConversationDetail,
  ConversationSummary,
  PendingApproval,
  Settings
} from '../../shared'

export interface AuditEntry {
  kind: string
  conversationId?: string | null
  runId?: string | null
  actor: string
  data: unknown
}

export interface RecoveryReport {
  runs: number
  toolCalls: number
  approvals: number
}

/**
 * The persistence port (DESIGN §8). One SQLite file; every AgentEvent is appended and projected
 * into conversations/messages/tool calls/approvals in the same transaction, so nothing shown to
 * the user is lost if the process dies right after.
 */
export interface ConversationStore {
  readonly path: string
  createConversation(title?: string): ConversationSummary
  listConversations(): ConversationSummary[]
  getConversation(id: string): ConversationDetail | null
  renameConversation(id: string, title: string): ConversationSummary | null
  deleteConversation(id: string): boolean
  addUserMessage(conversationId: string, runId: string, text: string): ChatMessage
  /** Append to the event log and update the projections, in one transaction. */
  recordEvent(event: AgentEvent): void
  /** Provider-neutral model messages (AI SDK ModelMessage JSON) that carry context across turns. */
  appendModelMessages(conversationId: string, runId: string, messages: unknown[]): void
  loadModelMessages(conversationId: string): unknown[]
  listEvents(runId: string): AgentEvent[]
  pendingApprovals(): PendingApproval[]
  getSettings(): Partial<Settings>
  saveSettings(settings: Partial<Settings>): void
  audit(entry: AuditEntry): void
  /** Marks runs, tool calls and approvals left open by a crash as interrupted. */
  recoverInterrupted(): RecoveryReport
  close(): void
}
