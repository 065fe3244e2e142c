import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import nodePath from 'node:path'
import Database from 'better-sqlite3'
import {
  AppError,
  RiskRuleSchema,
  SettingsSchema,
  errorMessage,
  newId,
  type AgentEvent,
  type ChatMessage,
  type ConversationDetail,
  type ConversationSearchResult,
  type ConversationSummary,
  type PendingApproval,
  type RiskRule,
  type Settings,
  type ToolAttachmentRef
} from '../../shared'
import { appendAudit, AuditAppender, verifyAuditChain, type AuditChainReport } from './audit-chain'
import { CommitBatches, type BatchItem, type CommittedListener } from './commit-batches'
import { ConversationBranches, type TurnRequest, type TurnStart } from './branches'
import { diskFullError, isDiskFull } from './disk-full'
import { EventTexts } from './event-texts'
import { ApprovalAnswers } from './approval-answers'
import { parseJson } from './json'
import { withMessageAttachments } from './message-attachments'
import { NewerSchemaError, migrate } from './migrations'
import { projectEvent } from './projection'
import { ConversationSearch } from './search'
import { MemoryStore } from './memories'
import { ScheduleStore } from './schedules'
import { StreamingAnswers } from './streaming-answers'
import { PendingToolOutputs } from './tool-outputs'
import {
  toChatMessage,
  toConversationSummary,
  toAuditRecord,
  toPendingApproval,
  toRiskRule,
  toRunSummary,
  toToolCallRecord
} from './rows'
import { prepareStatements, type Statements } from './statements'
import type { AuditAppend } from './audit-chain'
import type { AuditEntry, AuditRecord, ChatSendEntry, ConversationStore, RecoveryReport, StoredAttachment } from './types'

export interface SqliteStoreOptions {
  /** Path to a better_sqlite3.node built for this runtime (Electron ships its own ABI). */
  nativeBinding?: string
  /** How long an event may wait for its group commit (default BATCH_TICK_MS; a test widens it to catch a front door that shows too early). */
  batchTickMs?: number
  /** How many items make a batch before its tick (default BATCH_MAX_ITEMS; bench/store.bench.ts compares bounds). */
  batchMaxItems?: number
}

export const DEFAULT_CONVERSATION_TITLE = 'New conversation'
/** The untitled conversation's title in each UI language; the first question replaces any of them. */
export const UNTITLED_CONVERSATION_TITLES = { en: DEFAULT_CONVERSATION_TITLE, 'zh-CN': '新对话' } as const
const BUSY_TIMEOUT_MS = 5_000
const RECOVERY_REASON = 'DeskClaw stopped before this approval was answered'

/**
 * ConversationStore on one SQLite file (docs/architecture.md). WAL with synchronous=NORMAL: every committed
 * event survives a crash of the process (a power cut may lose the last few, never corrupt the file).
 */
export class SqliteConversationStore implements ConversationStore {
  private readonly statements: Statements
  private readonly search: ConversationSearch
  private readonly branches: ConversationBranches
  /** A call's display and a failed run's message code, read from the event log (no column holds them). */
  private readonly eventTexts: EventTexts
  private readonly approvalAnswers: ApprovalAnswers
  private memoryStore: MemoryStore | undefined
  private scheduleStore: ScheduleStore | undefined
  private readonly answers: StreamingAnswers
  private readonly auditAppender: AuditAppender
  private readonly batches: CommitBatches
  private readonly writeBatch: Database.Transaction<(items: readonly BatchItem[], now: number) => void>
  private readonly writeAnswers: Database.Transaction<() => void>
  private readonly readConversation: (id: string) => ConversationDetail | null

  private constructor(
    readonly path: string,
    private readonly db: Database.Database,
    options: SqliteStoreOptions = {}
  ) {
    this.statements = prepareStatements(db)
    this.search = new ConversationSearch(db)
    this.branches = new ConversationBranches(db)
    this.eventTexts = new EventTexts(db)
    this.approvalAnswers = new ApprovalAnswers(db)
    this.answers = new StreamingAnswers(this.statements)
    this.auditAppender = new AuditAppender(this.statements)
    this.writeBatch = db.transaction((items: readonly BatchItem[], now: number) => this.writeItems(items, now))
    this.writeAnswers = db.transaction(() => this.answers.writeDue(Date.now(), true))
    this.batches = new CommitBatches({
      commit: (items) => this.commitItems(items),
      describeFailure: (error, items) => this.describeWriteFailure(error, items),
      tickMs: options.batchTickMs,
      maxItems: options.batchMaxItems
    })
    // One read transaction, so the four reads see one snapshot while another process writes.
    this.readConversation = db.transaction((id: string): ConversationDetail | null => {
      const conversation = this.statements.getConversation.get(id)
      if (!conversation) return null
      return {
        conversation: toConversationSummary(conversation),
        messages: withMessageAttachments(this.statements.listMessages.all(id).map(toChatMessage), this.statements.listMessageAttachments.all(id)),
        toolCalls: this.approvalAnswers.withAnswers(
          id,
          this.eventTexts.withSubagents(id, this.eventTexts.withSteps(id, this.eventTexts.withDisplays(id, this.statements.listToolCalls.all(id).map(toToolCallRecord))))
        ),
        runs: this.eventTexts.withContext(id, this.eventTexts.withFailures(id, this.statements.listRuns.all(id).map(toRunSummary)))
      }
    })
  }

  /** Opens (creating file and folders if needed) and migrates; `':memory:'` gives a throwaway store. */
  static open(path: string, options: SqliteStoreOptions = {}): SqliteConversationStore {
    const db = openDatabase(path, options)
    try {
      configure(db)
      migrate(db)
    } catch (error) {
      db.close()
      if (error instanceof NewerSchemaError) throw error
      throw new Error(`cannot open the DeskClaw database at ${path}: ${errorMessage(error)}`, { cause: error })
    }
    return new SqliteConversationStore(path, db, options)
  }

  createConversation(title?: string, workspace?: string): ConversationSummary {
    this.sync()
    const now = Date.now()
    const row = {
      id: newId('conv'),
      // Untitled is stored unset, and each front end says it in its own language (issue 22, item 4).
      title: title?.trim() ?? '',
      created_at: now,
      updated_at: now,
      workspace: workspace ?? null
    }
    this.statements.insertConversation.run(row)
    return toConversationSummary(row)
  }

  /** Folders conversations of their own worked in, most recently active first. */
  recentWorkspaces(limit: number): string[] {
    this.sync()
    return this.statements.recentWorkspaces.all(limit).map((row) => row.workspace)
  }

  listConversations(): ConversationSummary[] {
    this.sync()
    return this.statements.listConversations.all().map(toConversationSummary)
  }

  getConversation(id: string): ConversationDetail | null {
    this.sync({ answers: true })
    return this.readConversation(id)
  }

  /** Renaming leaves updatedAt alone: the list is ordered by activity, and a rename is not activity. */
  renameConversation(id: string, title: string): ConversationSummary | null {
    this.sync()
    const trimmed = title.trim()
    if (!trimmed) throw new AppError('VALIDATION_FAILED', 'a conversation title cannot be empty')
    this.statements.renameConversation.run({ id, title: trimmed })
    const row = this.statements.getConversation.get(id)
    return row ? toConversationSummary(row) : null
  }

  /** Like a rename, not activity: updatedAt stays. `null` goes back to the model in settings. */
  setConversationModel(id: string, model: string | null): ConversationSummary | null {
    this.sync()
    const trimmed = model?.trim() || null
    this.statements.setConversationModel.run({ id, model: trimmed })
    const row = this.statements.getConversation.get(id)
    return row ? toConversationSummary(row) : null
  }

  /** Pinning is not activity either: updatedAt stays. Pinning a pinned one keeps its first pin time. */
  setConversationPinned(id: string, pinned: boolean): ConversationSummary | null {
    this.sync()
    this.statements.setConversationPinned.run({ id, pinned: pinned ? 1 : 0, at: Date.now() })
    const row = this.statements.getConversation.get(id)
    return row ? toConversationSummary(row) : null
  }

  searchConversations(query: string, limit?: number): ConversationSearchResult[] {
    this.sync({ answers: true })
    return this.search.search(query, limit)
  }

  /** Cascades to messages, runs, tool calls, approvals, events and model messages; audit rows stay. */
  saveAttachment(attachment: { ref: ToolAttachmentRef; conversationId: string; runId: string; callId: string; data: Uint8Array }): void {
    const { ref } = attachment
    this.statements.insertAttachment.run({
      id: ref.id,
      conversationId: attachment.conversationId,
      runId: attachment.runId,
      callId: attachment.callId,
      kind: ref.kind,
      mediaType: ref.mediaType,
      name: ref.name ?? null,
      data: Buffer.from(attachment.data.buffer, attachment.data.byteOffset, attachment.data.byteLength),
      at: Date.now()
    })
  }

  getAttachment(id: string): StoredAttachment | null {
    const row = this.statements.getAttachment.get(id)
    if (!row) return null
    return { id: row.id, conversationId: row.conversation_id, kind: row.kind, mediaType: row.media_type, name: row.name, data: row.data }
  }

  deleteConversation(id: string): boolean {
    this.sync()
    return this.statements.deleteConversation.run(id).changes > 0
  }

  addUserMessage(conversationId: string, runId: string, text: string): ChatMessage {
    this.sync()
    const message: ChatMessage = {
      id: newId('msg'),
      conversationId,
      runId,
      role: 'user',
      content: text,
      createdAt: Date.now()
    }
    this.db.transaction(() => {
      this.assertConversationExists(conversationId)
      // After the newest branch's last answer, unless beginTurn places it elsewhere.
      message.parentRunId = this.branches.tipRunId(conversationId)
      this.statements.insertMessage.run({ ...message, at: message.createdAt })
      this.statements.setQuestionParent.run({ id: message.id, parentRunId: message.parentRunId })
      this.statements.touchConversation.run({ conversationId, at: message.createdAt })
    })()
    return message
  }

  beginTurn(conversationId: string, runId: string, request: TurnRequest): TurnStart {
    this.sync()
    return this.db.transaction((): TurnStart => {
      this.assertConversationExists(conversationId)
      const plan = this.branches.plan(conversationId, request)
      const history = this.branches.modelMessages(conversationId, plan.historyRunIds)
      let questionId = plan.existingQuestionId
      if (questionId === null) {
        questionId = this.addUserMessage(conversationId, runId, plan.text).id
        this.statements.setQuestionParent.run({ id: questionId, parentRunId: plan.parentRunId })
      }
      const askedBefore = plan.firstRunId === null ? undefined : this.branches.askedIn(conversationId, plan.firstRunId)
      return {
        question: { id: questionId, parentRunId: plan.parentRunId, text: plan.text },
        history,
        ...(askedBefore !== undefined ? { askedBefore } : {})
      }
    })()
  }

  /**
   * Events of a conversation deleted mid-run are dropped: there is nothing left to attach them to.
   * Any other failure is thrown with the event type and run in the message.
   */
  recordEvent(event: AgentEvent): void {
    this.batches.add({ kind: 'event', event })
  }

  onCommitted(listener: CommittedListener): () => void {
    return this.batches.onCommitted(listener)
  }

  flush(): void {
    this.batches.flushOrThrow()
    this.sync({ answers: true })
  }

  /** Transactions the group commit made so far (bench/loop.bench.ts counts them per run). */
  get commits(): number {
    return this.batches.commits
  }

  /** Committed with the run's events, in their order (one transaction instead of one per step). */
  appendModelMessages(conversationId: string, runId: string, messages: unknown[]): void {
    if (messages.length > 0) this.batches.add({ kind: 'model_messages', conversationId, runId, messages })
  }

  loadModelMessages(conversationId: string): unknown[] {
    this.sync()
    return this.statements.listModelMessageData.all(conversationId).map((data) => JSON.parse(data) as unknown)
  }

  listEvents(runId: string): AgentEvent[] {
    this.sync()
    // Trusted cast: every row was written by recordEvent from a typed AgentEvent.
    return this.statements.listEventData.all({ runId }).map((data) => JSON.parse(data) as AgentEvent)
  }

  /** Unanswered approvals of runs still going; those of crashed runs are settled by recoverInterrupted. */
  pendingApprovals(): PendingApproval[] {
    this.sync()
    return this.statements.pendingApprovals.all().map(toPendingApproval)
  }

  /**
   * Stored settings that still fit the schema. A key that no longer validates (hand-edited, or
   * written by another version) is skipped, so the caller's default applies instead of an error.
   */
  getSettings(): Partial<Settings> {
    const settings: Record<string, unknown> = {}
    for (const { key, value } of this.statements.listSettings.all()) {
      if (!isSettingKey(key)) continue
      const parsed = SettingsSchema.shape[key].safeParse(parseJson(value))
      if (parsed.success) settings[key] = parsed.data
    }
    return settings as Partial<Settings>
  }

  saveSettings(settings: Partial<Settings>): void {
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(settings)) {
        if (value === undefined) continue
        this.statements.upsertSetting.run({ key, value: JSON.stringify(value) })
      }
    })()
  }

  audit(entry: AuditEntry): void {
    this.sync()
    // IMMEDIATE: take the write lock before reading the chain's tail (inside another transaction
    // this is a savepoint of it, which already writes).
    this.db
      .transaction(() => {
        appendAudit(this.statements, {
          at: Date.now(),
          kind: entry.kind,
          actor: entry.actor,
          conversationId: entry.conversationId ?? null,
          runId: entry.runId ?? null,
          data: JSON.stringify(entry.data ?? null)
        })
      })
      .immediate()
  }

  recentAudit(limit: number): AuditRecord[] {
    this.sync()
    return this.statements.recentAudit.all(Math.max(0, Math.floor(limit))).map(toAuditRecord)
  }

  verifyAuditChain(): AuditChainReport {
    this.sync()
    return verifyAuditChain(this.db)
  }

  recordChatSend(entry: ChatSendEntry): void {
    this.db
      .prepare(
        `INSERT INTO chat_sends (app, target, target_key, status, reason, at, conversation_id, run_id)
         VALUES (@app, @target, @targetKey, @status, @reason, @at, @conversationId, @runId)`
      )
      .run({ ...entry, conversationId: entry.conversationId ?? null, runId: entry.runId ?? null })
  }

  chatSendsPressedSince(app: string, targetKey: string, since: number): number[] {
    return this.db
      .prepare<[string, string, number], { at: number }>(
        `SELECT at FROM chat_sends WHERE app = ? AND target_key = ? AND at >= ? AND status IN ('sent', 'unknown') ORDER BY at`
      )
      .all(app, targetKey, since)
      .map((row) => row.at)
  }

  saveApprovalRule(rule: RiskRule, approvalId: string): void {
    this.sync()
    const parsed = RiskRuleSchema.safeParse(rule)
    if (!parsed.success) throw new AppError('VALIDATION_FAILED', `not a valid rule: ${parsed.error.issues[0]?.message}`)
    const { tool, match, decision } = parsed.data
    this.db
      .transaction(() => {
        const at = Date.now()
        const { changes } = this.statements.insertApprovalRule.run({
          id: `rule_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
          tool,
          match: JSON.stringify(match),
          decision,
          at,
          approvalId
        })
        if (changes === 0) return // the same rule is already saved
        const approval = this.statements.getApprovalSubject.get(approvalId)
        appendAudit(this.statements, {
          at,
          kind: 'approval_rule_saved',
          actor: 'user',
          conversationId: approval?.conversation_id ?? null,
          runId: approval?.run_id ?? null,
          data: JSON.stringify({ approvalId, rule: { tool, match, decision } })
        })
      })
      .immediate()
  }

  listApprovalRules(): RiskRule[] {
    return this.statements.listApprovalRules.all().map(toRiskRule)
  }

  /**
   * Run once at startup, before any run starts: whatever is still open was left so by a crash.
   * End times stay NULL because nobody knows when the process died.
   */
  recoverInterrupted(): RecoveryReport {
    this.sync({ answers: true })
    return this.db.transaction((): RecoveryReport => {
      this.statements.rebuildRunningAnswers.run()
      const report: RecoveryReport = {
        runs: this.statements.interruptRuns.run().changes,
        toolCalls: this.statements.interruptToolCalls.run().changes,
        approvals: this.statements.cancelUnansweredApprovals.run({ at: Date.now(), reason: RECOVERY_REASON })
          .changes
      }
      // A clean start is not worth an audit row; a recovery is.
      if (report.runs + report.toolCalls + report.approvals > 0) {
        this.audit({ kind: 'recovery', actor: 'system', data: report })
      }
      return report
    })()
  }

  releaseMemory(): void {
    if (!this.db.open || this.db.inTransaction) return
    this.db.pragma('shrink_memory')
  }

  memories(): MemoryStore {
    return (this.memoryStore ??= new MemoryStore(this.db))
  }

  schedules(): ScheduleStore {
    return (this.scheduleStore ??= new ScheduleStore(this.db, () => this.flush()))
  }

  close(): void {
    if (!this.db.open) return
    this.sync({ answers: true })
    try {
      // Cheap, and keeps query plans good as tables grow (SQLite's advice for long-lived connections).
      // Upkeep only: on a full disk (its statistics need room in the WAL) the next close does it;
      // everything recorded is already committed (docs/cli.md, "When the disk is full").
      try {
        this.db.pragma('optimize')
      } catch (error) {
        if (!isDiskFull(error)) throw error
      }
    } finally {
      this.db.close()
    }
  }

  /**
   * Commits what is queued, so every read and write after it sees each event recorded before it;
   * `answers`: the rows of answers still streaming get their whole text too.
   */
  private sync(options: { answers?: boolean } = {}): void {
    if (this.db.inTransaction || !this.db.open) return
    this.batches.flush()
    if (options.answers) this.writeAnswers()
  }

  /**
   * One transaction for the batch (IMMEDIATE: the write lock before the audit chain's tail is read).
   * When it fails for one bad item, each item is tried alone, so the others are not lost with it; a
   * full disk fails them all.
   */
  private commitItems(items: readonly BatchItem[]): { dropped: BatchItem[]; error?: unknown } {
    try {
      this.writeBatch.immediate(items, Date.now())
      return { dropped: [] }
    } catch (error) {
      this.answers.forget(new Set(items.map((item) => (item.kind === 'event' ? item.event.runId : item.runId))))
      if (isDiskFull(error) || items.length === 1) throw error
    }
    const dropped: BatchItem[] = []
    let firstError: unknown
    for (const item of items) {
      try {
        this.writeBatch.immediate([item], Date.now())
      } catch (error) {
        this.answers.forget([item.kind === 'event' ? item.event.runId : item.runId])
        if (isDiskFull(error)) throw error
        dropped.push(item)
        firstError ??= error
      }
    }
    return { dropped, error: firstError }
  }

  /** One batch, inside its transaction. Items of a conversation deleted meanwhile are dropped: nothing is left to attach them to. */
  private writeItems(items: readonly BatchItem[], now: number): void {
    this.auditAppender.begin()
    const outputs = new PendingToolOutputs(this.statements)
    const target = { statements: this.statements, audit: (entry: AuditAppend) => this.auditAppender.append(entry), answers: this.answers, outputs, now }
    const alive = new Map<string, boolean>()
    for (const item of items) {
      const conversationId = item.kind === 'event' ? item.event.conversationId : item.conversationId
      let exists = alive.get(conversationId)
      if (exists === undefined) alive.set(conversationId, (exists = this.conversationExists(conversationId)))
      if (!exists) continue
      if (item.kind === 'model_messages') {
        for (const message of item.messages) {
          this.statements.insertModelMessage.run({ conversationId, runId: item.runId, data: JSON.stringify(message) })
        }
        continue
      }
      const { event } = item
      this.statements.insertEvent.run(event.runId, conversationId, event.type, JSON.stringify(event), event.at)
      projectEvent(target, event)
    }
    outputs.writeAll()
    this.answers.writeDue(now, false)
  }

  private describeWriteFailure(error: unknown, items: readonly BatchItem[]): Error {
    // The rows stay "running" and the next start's recovery marks them interrupted (docs/cli.md).
    if (isDiskFull(error)) return diskFullError(this.db.name)
    const first = items.find((item) => item.kind === 'event')
    const what = first?.kind === 'event' ? `${first.event.type} of run ${first.event.runId}` : 'model messages'
    return new Error(`could not record ${what}: ${errorMessage(error)}`, { cause: error })
  }

  private conversationExists(id: string): boolean {
    return this.statements.getConversation.get(id) !== undefined
  }

  private assertConversationExists(id: string): void {
    if (!this.conversationExists(id)) throw new AppError('NOT_FOUND', `conversation ${id} not found`)
  }
}

function openDatabase(path: string, options: SqliteStoreOptions): Database.Database {
  if (path !== ':memory:' && !path.startsWith('file:')) {
    fs.mkdirSync(nodePath.dirname(nodePath.resolve(path)), { recursive: true })
  }
  try {
    return new Database(path, { nativeBinding: options.nativeBinding })
  } catch (error) {
    throw new Error(describeOpenFailure(path, error), { cause: error })
  }
}

function describeOpenFailure(path: string, error: unknown): string {
  const message = errorMessage(error)
  // The classic native-module trap (docs/architecture.md): the addon was last built for the other runtime.
  if (/NODE_MODULE_VERSION|different Node\.js version|was compiled against/i.test(message)) {
    return (
      'better-sqlite3 is built for a different runtime (Electron and Node need separate builds); ' +
      `run the native rebuild step for this one. ${message}`
    )
  }
  return `cannot open the DeskClaw database at ${path}: ${message}`
}

function configure(db: Database.Database): void {
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
}

function isSettingKey(key: string): key is keyof Settings {
  return Object.hasOwn(SettingsSchema.shape, key)
}
