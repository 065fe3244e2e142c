import type Database from 'better-sqlite3'
import type { ToolCallStatus } from '../../shared'

/** Row shapes as SQLite returns them (snake_case, JSON as text, booleans as 0/1). */
export interface ConversationRow {
  id: string
  title: string
  created_at: number
  updated_at: number
  workspace: string | null
  /** Schema 5; absent in rows built before a SELECT names it. */
  model?: string | null
  /** Schema 6: when the conversation was pinned (NULL: not pinned); absent as for model. */
  pinned_at?: number | null
}

export interface MessageRow {
  id: string
  conversation_id: string
  run_id: string | null
  role: 'user' | 'assistant'
  content: string
  created_at: number
  /** Schema 8: a question's run it follows (NULL: the first question, or an answer). */
  parent_run_id?: string | null
}

export interface ToolCallRow {
  id: string
  conversation_id: string
  run_id: string
  tool: string
  args: string | null
  status: ToolCallStatus
  is_error: number
  output: string
  started_at: number
  ended_at: number | null
  duration_ms: number | null
  runtime: string | null
  verdict: string | null
  findings: string | null
  summary: string | null
  attachments: string | null
}

export interface AttachmentRow {
  id: string
  conversation_id: string
  kind: 'image' | 'file'
  media_type: string
  name: string | null
  data: Buffer
}

/** An attachment of a user message (its call_id is the message id), without its bytes. */
export interface MessageAttachmentRow {
  id: string
  message_id: string
  kind: 'image' | 'file'
  media_type: string
  name: string | null
  bytes: number
}

export interface RunRow {
  id: string
  conversation_id: string
  status: 'running' | 'completed' | 'failed' | 'cancelled' | 'interrupted'
  stop_reason: string | null
  error: string | null
  started_at: number
  ended_at: number | null
  usage: string | null
  model: string | null
  /** Schema 8: the question this run answers. */
  answers_message_id?: string | null
}

export interface ApprovalRow {
  id: string
  call_id: string
  conversation_id: string
  run_id: string
  tool: string
  args: string | null
  reason: string
  preview: string
  expires_at: number
  assessment: string | null
  binding_hash: string | null
}

export interface ApprovalRuleRow {
  tool: string
  match: string
  decision: string
}

export interface AuditLogRow {
  seq: number
  at: number
  kind: string
  actor: string
  conversation_id: string | null
  run_id: string | null
  data: string
}

export interface SettingRow {
  key: string
  value: string
}

interface RunRef {
  runId: string
  callId: string
}

interface AuditRowParams extends AuditLogRow {
  prev_hash: string
  hash: string
}

export interface AuditListRow extends AuditLogRow {
  hash: string | null
}

/**
 * Every statement the store runs, prepared once: recordEvent runs per model token, and preparing
 * costs more than executing.
 */
export function prepareStatements(db: Database.Database) {
  return {
    // conversations
    insertConversation: db.prepare<ConversationRow>(
      `INSERT INTO conversations (id, title, created_at, updated_at, workspace)
       VALUES (@id, @title, @created_at, @updated_at, @workspace)`
    ),
    getConversation: db.prepare<[string], ConversationRow>(
      `SELECT id, title, created_at, updated_at, workspace, model, pinned_at FROM conversations WHERE id = ?`
    ),
    listConversations: db.prepare<[], ConversationRow>(
      // Pinned first (most recently pinned on top), then by activity.
      `SELECT id, title, created_at, updated_at, workspace, model, pinned_at FROM conversations
       ORDER BY pinned_at IS NULL, pinned_at DESC, updated_at DESC, created_at DESC, rowid DESC`
    ),
    /** Folders conversations worked in, most recently active first. */
    recentWorkspaces: db.prepare<[number], { workspace: string }>(
      `SELECT workspace FROM conversations WHERE workspace IS NOT NULL
       GROUP BY workspace ORDER BY MAX(updated_at) DESC LIMIT ?`
    ),
    renameConversation: db.prepare<{ id: string; title: string }>(
      `UPDATE conversations SET title = @title WHERE id = @id`
    ),
    setConversationModel: db.prepare<{ id: string; model: string | null }>(
      `UPDATE conversations SET model = @model WHERE id = @id`
    ),
    /** Pinning again keeps the first pin time, so re-pinning does not reorder the pinned group. */
    setConversationPinned: db.prepare<{ id: string; pinned: 0 | 1; at: number }>(
      `UPDATE conversations SET pinned_at = CASE WHEN @pinned = 1 THEN COALESCE(pinned_at, @at) END WHERE id = @id`
    ),
    deleteConversation: db.prepare<[string]>(`DELETE FROM conversations WHERE id = ?`),
    touchConversation: db.prepare<{ conversationId: string; at: number }>(
      `UPDATE conversations SET updated_at = MAX(updated_at, @at) WHERE id = @conversationId`
    ),
    titleUntitledConversation: db.prepare<{ conversationId: string; title: string }>(
      `UPDATE conversations SET title = @title
       WHERE id = @conversationId AND trim(title) IN ('', 'New conversation', '新对话')`
    ),

    // messages
    insertMessage: db.prepare<{
      id: string
      conversationId: string
      runId: string | null
      role: 'user' | 'assistant'
      content: string
      at: number
    }>(
      `INSERT INTO messages (id, conversation_id, run_id, role, content, created_at, seq)
       VALUES (@id, @conversationId, @runId, @role, @content, @at,
               (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE conversation_id = @conversationId))`
    ),
    messageExists: db.prepare<[string], 1>(`SELECT 1 FROM messages WHERE id = ?`).pluck(),
    /** A streamed answer's row gets its whole text at once (streaming-answers.ts), never a delta appended. */
    setMessageContent: db.prepare<{ id: string; content: string }>(
      `UPDATE messages SET content = @content WHERE id = @id AND content <> @content`
    ),
    /** An answer's text as the event log holds it: every delta of the message, in order. */
    answerTextFromEvents: db
      .prepare<{ conversationId: string; runId: string; messageId: string }, string | null>(
        `SELECT group_concat(json_extract(data, '$.delta'), '' ORDER BY seq) FROM events
         WHERE conversation_id = @conversationId AND type = 'text_delta' AND run_id = @runId
           AND json_extract(data, '$.messageId') = @messageId`
      )
      .pluck(),
    listMessages: db.prepare<[string], MessageRow>(
      `SELECT id, conversation_id, run_id, role, content, created_at, parent_run_id FROM messages
       WHERE conversation_id = ? ORDER BY seq`
    ),
    /** Message versions (schema 8): where a question hangs in its conversation's tree. */
    setQuestionParent: db.prepare<{ id: string; parentRunId: string | null }>(
      `UPDATE messages SET parent_run_id = @parentRunId WHERE id = @id AND role = 'user'`
    ),

    // runs
    insertRun: db.prepare<{ runId: string; conversationId: string; at: number; model: string }>(
      `INSERT INTO runs (id, conversation_id, status, started_at, model)
       VALUES (@runId, @conversationId, 'running', @at, @model)`
    ),
    completeRun: db.prepare<{
      runId: string
      status: 'completed' | 'cancelled'
      stopReason: string
      usage: string
      at: number
    }>(
      `UPDATE runs SET status = @status, stop_reason = @stopReason, usage = @usage, ended_at = @at
       WHERE id = @runId`
    ),
    failRun: db.prepare<{ runId: string; error: string; usage: string | null; at: number }>(
      `UPDATE runs SET status = 'failed', error = @error, usage = @usage, ended_at = @at WHERE id = @runId`
    ),
    listRuns: db.prepare<[string], RunRow>(
      `SELECT id, conversation_id, status, stop_reason, error, started_at, ended_at, usage, model, answers_message_id FROM runs
       WHERE conversation_id = ? ORDER BY started_at, rowid`
    ),
    /** Message versions (schema 8): the question a run answers, from its run_started. */
    setRunQuestion: db.prepare<{ runId: string; questionId: string }>(
      `UPDATE runs SET answers_message_id = @questionId WHERE id = @runId`
    ),

    // tool calls
    startToolCall: db.prepare<RunRef & { conversationId: string; tool: string; args: string | null; summary: string | null; at: number }>(
      // A repeated call id in one run (some local servers reuse ids) restarts the row instead of
      // failing the whole event; the event log still holds both.
      `INSERT INTO tool_calls (id, conversation_id, run_id, tool, args, summary, status, output, started_at)
       VALUES (@callId, @conversationId, @runId, @tool, @args, @summary, 'running', '', @at)
       ON CONFLICT (run_id, id) DO UPDATE SET
         tool = excluded.tool, args = excluded.args, summary = excluded.summary, status = 'running', is_error = 0, output = '',
         started_at = excluded.started_at, ended_at = NULL, duration_ms = NULL,
         runtime = NULL, verdict = NULL, findings = NULL, attachments = NULL`
    ),
    setToolCallRisk: db.prepare<RunRef & { verdict: string; findings: string }>(
      `UPDATE tool_calls SET verdict = @verdict, findings = @findings WHERE run_id = @runId AND id = @callId`
    ),
    appendToolOutput: db.prepare<RunRef & { chunk: string }>(
      `UPDATE tool_calls SET output = output || @chunk WHERE run_id = @runId AND id = @callId`
    ),
    // Only open calls change status, so a late event cannot reopen a finished call.
    setOpenToolCallStatus: db.prepare<RunRef & { status: ToolCallStatus }>(
      `UPDATE tool_calls SET status = @status
       WHERE run_id = @runId AND id = @callId AND status IN ('pending', 'awaiting_approval', 'running')`
    ),
    // An upsert: a call rejected before it started (unknown tool, bad args) completes without a start.
    completeToolCall: db.prepare<
      RunRef & {
        conversationId: string
        tool: string
        status: ToolCallStatus
        isError: number
        output: string
        startedAt: number
        at: number
        durationMs: number
        runtime: string | null
        attachments: string | null
      }
    >(
      `INSERT INTO tool_calls
         (id, conversation_id, run_id, tool, args, status, is_error, output, started_at, ended_at, duration_ms, runtime, attachments)
       VALUES
         (@callId, @conversationId, @runId, @tool, NULL, @status, @isError, @output, @startedAt, @at, @durationMs, @runtime, @attachments)
       ON CONFLICT (run_id, id) DO UPDATE SET
         status = excluded.status, is_error = excluded.is_error, output = excluded.output,
         ended_at = excluded.ended_at, duration_ms = excluded.duration_ms, runtime = excluded.runtime,
         attachments = excluded.attachments`
    ),
    getToolCallArgs: db.prepare<RunRef, { args: string | null }>(
      `SELECT args FROM tool_calls WHERE run_id = @runId AND id = @callId`
    ),
    listToolCalls: db.prepare<[string], ToolCallRow>(
      `SELECT id, conversation_id, run_id, tool, args, status, is_error, output, started_at, ended_at, duration_ms,
              runtime, verdict, findings, summary, attachments
       FROM tool_calls WHERE conversation_id = ? ORDER BY started_at, rowid`
    ),

    // attachments
    insertAttachment: db.prepare<{
      id: string
      conversationId: string
      runId: string
      callId: string
      kind: string
      mediaType: string
      name: string | null
      data: Buffer
      at: number
    }>(
      `INSERT INTO attachments (id, conversation_id, run_id, call_id, kind, media_type, name, data, created_at)
       VALUES (@id, @conversationId, @runId, @callId, @kind, @mediaType, @name, @data, @at)`
    ),
    getAttachment: db.prepare<[string], AttachmentRow>(
      `SELECT id, conversation_id, kind, media_type, name, data FROM attachments WHERE id = ?`
    ),
    // length() of a blob is read from the record header: the bytes themselves are not loaded.
    listMessageAttachments: db.prepare<[string], MessageAttachmentRow>(
      `SELECT a.id, a.call_id AS message_id, a.kind, a.media_type, a.name, length(a.data) AS bytes
       FROM attachments a JOIN messages m ON m.id = a.call_id AND m.conversation_id = a.conversation_id
       WHERE a.conversation_id = ? ORDER BY a.created_at, a.rowid`
    ),

    // approvals
    insertApproval: db.prepare<{
      approvalId: string
      callId: string
      conversationId: string
      runId: string
      tool: string
      args: string | null
      reason: string
      preview: string
      expiresAt: number
      at: number
      assessment: string | null
      bindingHash: string | null
    }>(
      `INSERT INTO approvals
         (id, call_id, conversation_id, run_id, tool, args, reason, preview, expires_at, requested_at,
          assessment, binding_hash)
       VALUES
         (@approvalId, @callId, @conversationId, @runId, @tool, @args, @reason, @preview, @expiresAt, @at,
          @assessment, @bindingHash)`
    ),
    // The first answer wins, as in the broker.
    resolveApproval: db.prepare<{
      approvalId: string
      answer: string
      by: string
      reason: string | null
      at: number
    }>(
      `UPDATE approvals SET answer = @answer, resolved_by = @by, resolve_reason = @reason, resolved_at = @at
       WHERE id = @approvalId AND answer IS NULL`
    ),
    getApprovalSubject: db.prepare<
      [string],
      { tool: string; args: string | null; binding_hash: string | null; conversation_id: string; run_id: string }
    >(`SELECT tool, args, binding_hash, conversation_id, run_id FROM approvals WHERE id = ?`),
    pendingApprovals: db.prepare<[], ApprovalRow>(
      `SELECT a.id, a.call_id, a.conversation_id, a.run_id, a.tool, a.args, a.reason, a.preview, a.expires_at,
              a.assessment, a.binding_hash
       FROM approvals a JOIN runs r ON r.id = a.run_id
       WHERE a.answer IS NULL AND r.status = 'running'
       ORDER BY a.requested_at, a.rowid`
    ),

    // rules saved by "always allow"
    insertApprovalRule: db.prepare<{
      id: string
      tool: string
      match: string
      decision: string
      at: number
      approvalId: string
    }>(
      `INSERT INTO approval_rules (id, tool, match, decision, created_at, source_approval_id)
       VALUES (@id, @tool, @match, @decision, @at, @approvalId)
       ON CONFLICT (tool, match) DO NOTHING`
    ),
    listApprovalRules: db.prepare<[], ApprovalRuleRow>(
      `SELECT tool, match, decision FROM approval_rules ORDER BY created_at, rowid`
    ),

    // event log and model context
    /** Positional parameters: binding by name cost a third of an insert, and this runs per token (docs/benchmarks.md, "Store"). */
    insertEvent: db.prepare<[runId: string, conversationId: string, type: string, data: string, at: number]>(
      `INSERT INTO events (run_id, conversation_id, type, data, at) VALUES (?, ?, ?, ?, ?)`
    ),
    /** A run's events, found through its conversation (schema 11: the log's one index starts with it). */
    listEventData: db
      .prepare<{ runId: string }, string>(
        `SELECT data FROM events
         WHERE conversation_id IN (SELECT conversation_id FROM runs WHERE id = @runId) AND run_id = @runId
         ORDER BY seq`
      )
      .pluck(),
    insertModelMessage: db.prepare<{ conversationId: string; runId: string; data: string }>(
      `INSERT INTO model_messages (conversation_id, run_id, data) VALUES (@conversationId, @runId, @data)`
    ),
    listModelMessageData: db
      .prepare<[string], string>(`SELECT data FROM model_messages WHERE conversation_id = ? ORDER BY seq`)
      .pluck(),

    // settings and audit
    listSettings: db.prepare<[], SettingRow>(`SELECT key, value FROM settings`),
    upsertSetting: db.prepare<SettingRow>(
      `INSERT INTO settings (key, value) VALUES (@key, @value)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`
    ),
    // The chain's tail: the highest seq ever used (sqlite_sequence also remembers a removed tail)
    // and the last row's hash. Read inside the write transaction, by appendAudit only.
    auditTail: db.prepare<[], { lastSeq: number; lastHash: string | null }>(
      `SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'), 0),
                  COALESCE((SELECT MAX(seq) FROM audit_log), 0)) AS lastSeq,
              (SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1) AS lastHash`
    ),
    // Use appendAudit (audit-chain.ts), which computes the links; never run this directly.
    insertAuditRow: db.prepare<AuditRowParams>(
      `INSERT INTO audit_log (seq, at, kind, actor, conversation_id, run_id, data, prev_hash, hash)
       VALUES (@seq, @at, @kind, @actor, @conversation_id, @run_id, @data, @prev_hash, @hash)`
    ),
    recentAudit: db.prepare<[number], AuditListRow>(
      `SELECT * FROM (
         SELECT seq, at, kind, actor, conversation_id, run_id, data, hash FROM audit_log ORDER BY seq DESC LIMIT ?
       ) ORDER BY seq`
    ),

    // crash recovery
    /** Answers of runs a crash left running get the text of their logged deltas (the row may lag by PARTIAL_TEXT_MS). */
    rebuildRunningAnswers: db.prepare<[]>(
      `UPDATE messages SET content = COALESCE(
         (SELECT group_concat(json_extract(e.data, '$.delta'), '' ORDER BY e.seq) FROM events e
          WHERE e.conversation_id = messages.conversation_id AND e.type = 'text_delta' AND e.run_id = messages.run_id
            AND json_extract(e.data, '$.messageId') = messages.id),
         content)
       WHERE role = 'assistant' AND run_id IN (SELECT id FROM runs WHERE status = 'running')`
    ),
    interruptRuns: db.prepare<[]>(`UPDATE runs SET status = 'interrupted' WHERE status = 'running'`),
    interruptToolCalls: db.prepare<[]>(
      `UPDATE tool_calls SET status = 'interrupted'
       WHERE status IN ('pending', 'awaiting_approval', 'running')`
    ),
    cancelUnansweredApprovals: db.prepare<{ at: number; reason: string }>(
      `UPDATE approvals SET answer = 'deny', resolved_by = 'cancelled', resolve_reason = @reason, resolved_at = @at
       WHERE answer IS NULL`
    )
  }
}

export type Statements = ReturnType<typeof prepareStatements>
