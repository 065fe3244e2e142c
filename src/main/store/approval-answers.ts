import type Database from 'better-sqlite3'
import { ApprovalRecordSchema, type ApprovalRecord, type ToolCallRecord } from '../../shared'

interface AnswerRow {
  run_id: string
  call_id: string
  answer: string
  resolved_by: string | null
  resolve_reason: string | null
  resolved_at: number | null
  via: string | null
}

/**
 * How each call's approval was answered, for the snapshot: the approvals table's answer, who and
 * when (a crash's recovery writes those too), and from approval_resolved's event the front door it
 * was given at — read with json_extract, no column, as event-texts.ts does (docs/architecture.md,
 * "Texts from main"). Without it the timeline lost "Denied by you · Reason: …" on a reload.
 */
export class ApprovalAnswers {
  private readonly answers: Database.Statement<[string], AnswerRow>

  constructor(db: Database.Database) {
    // In request order: a call asked twice (a changed call needs a new approval) ends with its last answer.
    this.answers = db.prepare(
      `SELECT a.run_id, a.call_id, a.answer, a.resolved_by, a.resolve_reason, a.resolved_at,
              (SELECT json_extract(e.data, '$.via') FROM events e
                WHERE e.conversation_id = a.conversation_id AND e.type = 'approval_resolved'
                  AND json_extract(e.data, '$.approvalId') = a.id
                LIMIT 1) AS via
       FROM approvals a
       WHERE a.conversation_id = ? AND a.answer IS NOT NULL
       ORDER BY a.requested_at, a.rowid`
    )
  }

  /** Each call with its approval's answer, when it was asked and answered. */
  withAnswers(conversationId: string, calls: ToolCallRecord[]): ToolCallRecord[] {
    const byCall = new Map<string, ApprovalRecord>()
    for (const row of this.answers.all(conversationId)) {
      const parsed = ApprovalRecordSchema.safeParse({
        answer: row.answer,
        by: row.resolved_by ?? 'user',
        at: row.resolved_at ?? 0,
        ...(row.resolve_reason ? { reason: row.resolve_reason } : {}),
        ...(row.via ? { via: row.via } : {})
      })
      if (parsed.success) byCall.set(`${row.run_id}\u0000${row.call_id}`, parsed.data)
    }
    if (byCall.size === 0) return calls
    return calls.map((call) => {
      const answered = byCall.get(`${call.runId}\u0000${call.id}`)
      return answered ? { ...call, answered } : call
    })
  }
}
