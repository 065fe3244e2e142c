import type {
  AgentEvent,
  ChatMessage,
  ConversationDetail,
  ConversationSearchResult,
  ConversationSummary,
  PendingApproval,
  RiskRule,
  Settings,
  ToolAttachmentRef
} from '../../shared'
import type { AuditChainReport } from './audit-chain'
import type { TurnRequest, TurnStart } from './branches'
import type { MemoryStore } from './memories'
import type { ScheduleStore } from './schedules'

/** One send-text task's outcome (docs/desktop.md, "Sending messages"). */
export interface ChatSendEntry {
  app: string
  target: string
  /** The target normalised for matching, as the rate limit compares chats. */
  targetKey: string
  status: 'sent' | 'not_sent' | 'unknown'
  reason: string
  at: number
  conversationId?: string | null
  runId?: string | null
}

export interface AuditEntry {
  kind: string
  conversationId?: string | null
  runId?: string | null
  actor: string
  data: unknown
}

/** One audit row as read back (data parsed). */
export interface AuditRecord {
  seq: number
  at: number
  kind: string
  actor: string
  conversationId: string | null
  runId: string | null
  data: unknown
  /** This entry's link in the hash chain (null in a file from before schema 2). */
  hash: string | null
}

/** An attachment's bytes with what it is. */
export interface StoredAttachment {
  id: string
  conversationId: string
  kind: 'image' | 'file'
  mediaType: string
  name: string | null
  data: Buffer
}

export interface RecoveryReport {
  runs: number
  toolCalls: number
  approvals: number
}

/**
 * The persistence port (docs/architecture.md). One SQLite file; every AgentEvent is appended and projected
 * into conversations/messages/tool calls/approvals in the same transaction, and front doors hear of
 * it only after that transaction committed, so nothing shown to the user is lost if the process dies.
 */
export interface ConversationStore {
  readonly path: string
  /** `workspace`: an absolute folder for this conversation's tools; default the one in settings. */
  createConversation(title?: string, workspace?: string): ConversationSummary
  recentWorkspaces(limit: number): string[]
  listConversations(): ConversationSummary[]
  getConversation(id: string): ConversationDetail | null
  renameConversation(id: string, title: string): ConversationSummary | null
  /** This conversation's own model; null: the model in settings. Null result: no such conversation. */
  setConversationModel(id: string, model: string | null): ConversationSummary | null
  /** Pins (listed first, newest pin on top) or unpins; null: no such conversation. */
  setConversationPinned(id: string, pinned: boolean): ConversationSummary | null
  /**
   * Titles and message text, one result per conversation, title matches first, then by relevance;
   * any text is a literal query (no FTS syntax). `limit`: 20 by default, at most 50.
   */
  searchConversations(query: string, limit?: number): ConversationSearchResult[]
  deleteConversation(id: string): boolean
  addUserMessage(conversationId: string, runId: string, text: string): ChatMessage
  /**
   * Places a run's question in the conversation's tree (a new question after an answer, the same
   * one again, or an edited one: docs/architecture.md, "Message versions") and returns the model
   * history of that path only. NOT_FOUND for a run or message of another conversation.
   */
  beginTurn(conversationId: string, runId: string, request: TurnRequest): TurnStart
  /**
   * Appends to the event log and updates the projections; events are committed in groups (a tick of
   * a few ms, or many events), and every read or write of this store commits what is queued first.
   * Throws the failure of an earlier group (a full disk) so the run that records fails.
   */
  recordEvent(event: AgentEvent): void
  /** Hears each event once the transaction holding it committed, in order: what front doors may show. */
  onCommitted(listener: (event: AgentEvent) => void): () => void
  /** Commits what is queued now. */
  flush(): void
  /** Provider-neutral model messages (AI SDK ModelMessage JSON) that carry context across turns; committed with the events. */
  appendModelMessages(conversationId: string, runId: string, messages: unknown[]): void
  loadModelMessages(conversationId: string): unknown[]
  /**
   * Gives SQLite's page cache back (its pages are read again cheaply from the OS's file cache):
   * called when no run is left going, so a long-lived host stays flat (docs/benchmarks.md, "`deskclaw web` memory").
   */
  releaseMemory(): void
  /** The events of a run that has its runs row (run_started was recorded), in log order. */
  listEvents(runId: string): AgentEvent[]
  /** Keeps an image or file a tool returned; called before the event that names it. */
  saveAttachment(attachment: { ref: ToolAttachmentRef; conversationId: string; runId: string; callId: string; data: Uint8Array }): void
  getAttachment(id: string): StoredAttachment | null
  pendingApprovals(): PendingApproval[]
  getSettings(): Partial<Settings>
  saveSettings(settings: Partial<Settings>): void
  /** Appends one row to the hash-chained audit log. */
  audit(entry: AuditEntry): void
  /** The newest `limit` audit rows, oldest first. */
  recentAudit(limit: number): AuditRecord[]
  /** Walks the audit log's hash chain; the first broken link is reported by seq. */
  verifyAuditChain(): AuditChainReport
  /** A message sent (or tried) into a desktop chat app: the rate limits count these (schema 7). */
  recordChatSend(entry: ChatSendEntry): void
  /** When the send key was pressed for this chat since `since` (sent or unknown), oldest first. */
  chatSendsPressedSince(app: string, targetKey: string, since: number): number[]
  /**
   * Saves the narrow rule an "always allow" answer produced (audited as `approval_rule_saved`).
   * A rule with the same tool and match tokens as a saved one is not saved again.
   */
  saveApprovalRule(rule: RiskRule, approvalId: string): void
  /** Saved rules, oldest first. */
  listApprovalRules(): RiskRule[]
  /** Marks runs, tool calls and approvals left open by a crash as interrupted. */
  recoverInterrupted(): RecoveryReport
  /** What the agent remembers across conversations, in the same file (docs/tools.md, "Memory"). */
  memories(): MemoryStore
  /** Scheduled tasks, in the same file (docs/tools.md, "Schedules"). */
  schedules(): ScheduleStore
  close(): void
}
