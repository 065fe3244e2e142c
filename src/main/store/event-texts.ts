import type Database from 'better-sqlite3'
import { CompactionSchema, ContextFillSchema, StepChangesSchema, ToolStepSchema, type RunSummary, type StepChanges, type ToolCallRecord, type ToolStep, type ToolText } from '../../shared'
import { parseJson } from './json'

interface DisplayRow {
  run_id: string
  call_id: string | null
  display: string | null
  changes: string | null
  cached: number | null
}

type RunFailure = NonNullable<RunSummary['failure']>

interface SummaryRow {
  run_id: string
  call_id: string | null
  summary_text: string | null
}

interface StepRow {
  run_id: string
  call_id: string | null
  step: string | null
  ok: number | boolean | null
  detail: string | null
  detail_text: string | null
  attachment: string | null
  at: number
}

interface SubagentRow {
  run_id: string
  call_id: string | null
  child_run_id: string | null
  task: string | null
  event: string | null
}

/** A sub-agent's answer is kept up to this many characters in a reloaded card (the parent's result has it whole). */
const SUBAGENT_TEXT_MAX = 4000
/** What a reloaded card shows of a sub-agent's nested event besides its type, run and time. */
const SUBAGENT_FIELDS = ['callId', 'tool', 'summary', 'status', 'stopReason', 'text'] as const

interface FailureRow {
  run_id: string
  error: string | null
}

/**
 * The translatable texts a snapshot takes from the event log (docs/architecture.md, "Texts from
 * main"): a tool call's `display` (tool_call_completed) and a failed run's whole error with its
 * message code (run_failed). They are kept only in those events — no column, no migration — and
 * `json_extract` reads just those fields when `conversations.get` builds the snapshot.
 */
export class EventTexts {
  private readonly displays: Database.Statement<[string], DisplayRow>
  private readonly failures: Database.Statement<[string], FailureRow>
  private readonly contextFills: Database.Statement<[string, string], { run_id: string; data: string }>
  private readonly compactions: Database.Statement<[string], { run_id: string; data: string }>
  private readonly steps: Database.Statement<[string], StepRow>
  private readonly subagents: Database.Statement<[string], SubagentRow>
  private readonly summaries: Database.Statement<[string], SummaryRow>

  constructor(db: Database.Database) {
    // In log order, so a call id a run reused (some local servers do) ends with its last completion.
    this.displays = db.prepare(
      `SELECT run_id, json_extract(data, '$.callId') AS call_id, json_extract(data, '$.display') AS display,
              json_extract(data, '$.changes') AS changes, json_extract(data, '$.cached') AS cached
       FROM events WHERE conversation_id = ? AND type = 'tool_call_completed' ORDER BY seq`
    )
    this.steps = db.prepare(
      `SELECT run_id, json_extract(data, '$.callId') AS call_id, json_extract(data, '$.step') AS step,
              json_extract(data, '$.ok') AS ok, json_extract(data, '$.detail') AS detail, json_extract(data, '$.detailText') AS detail_text,
              json_extract(data, '$.attachment') AS attachment, at
       FROM events WHERE conversation_id = ? AND type = 'tool_progress' ORDER BY seq`
    )
    this.summaries = db.prepare(
      `SELECT run_id, json_extract(data, '$.callId') AS call_id, json_extract(data, '$.summaryText') AS summary_text
       FROM events WHERE conversation_id = ? AND type = 'tool_call_started' ORDER BY seq`
    )
    this.subagents = db.prepare(
      `SELECT run_id, json_extract(data, '$.callId') AS call_id, json_extract(data, '$.childRunId') AS child_run_id,
              json_extract(data, '$.task') AS task, json_extract(data, '$.event') AS event
       FROM events WHERE conversation_id = ? AND type = 'subagent_event'
         AND json_extract(data, '$.event.type') IN ('run_started', 'tool_call_started', 'tool_call_completed', 'run_completed', 'run_failed')
       ORDER BY seq`
    )
    // The latest context_usage of each run (the header's meter), and every compaction (the timeline's markers).
    this.contextFills = db.prepare(
      `SELECT run_id, data FROM events WHERE conversation_id = ? AND type = 'context_usage' AND seq IN
         (SELECT MAX(seq) FROM events WHERE conversation_id = ? AND type = 'context_usage' GROUP BY run_id)`
    )
    this.compactions = db.prepare(`SELECT run_id, data FROM events WHERE conversation_id = ? AND type = 'context_compacted' ORDER BY seq`)
    this.failures = db.prepare(
      `SELECT run_id, json_extract(data, '$.error') AS error
       FROM events WHERE conversation_id = ? AND type = 'run_failed' ORDER BY seq`
    )
  }

  /** Each call with the display line and the workspace changes (docs/checkpoints.md) its completion carried. */
  withDisplays(conversationId: string, calls: ToolCallRecord[]): ToolCallRecord[] {
    // The summary's message code too (tool_call_started), so a reload says it in the UI's language.
    calls = this.withSummaryTexts(conversationId, calls)
    const byCall = new Map<string, { display?: ToolText; changes?: StepChanges; cached?: true }>()
    for (const row of this.displays.all(conversationId)) {
      if (row.call_id === null) continue
      const key = `${row.run_id}\u0000${row.call_id}`
      const display = row.display === null ? null : asToolText(parseJson(row.display))
      const changes = row.changes === null ? undefined : StepChangesSchema.safeParse(parseJson(row.changes)).data
      const cached = row.cached === 1
      if (display || changes || cached) byCall.set(key, { ...(display ? { display } : {}), ...(changes ? { changes } : {}), ...(cached ? { cached } : {}) })
      else byCall.delete(key)
    }
    if (byCall.size === 0) return calls
    return calls.map((call) => {
      const texts = byCall.get(`${call.runId}\u0000${call.id}`)
      return texts ? { ...call, ...texts } : call
    })
  }

  /** Each call with the summary tool_call_started carried as a message code (a screenshot's "the whole screen"). */
  private withSummaryTexts(conversationId: string, calls: ToolCallRecord[]): ToolCallRecord[] {
    const byCall = new Map<string, ToolText>()
    for (const row of this.summaries.all(conversationId)) {
      if (row.call_id === null) continue
      const key = `${row.run_id}\u0000${row.call_id}`
      const text = row.summary_text === null ? null : asToolText(parseJson(row.summary_text))
      if (text) byCall.set(key, text)
      else byCall.delete(key)
    }
    if (byCall.size === 0) return calls
    return calls.map((call) => {
      const summaryText = byCall.get(`${call.runId}\u0000${call.id}`)
      return summaryText ? { ...call, summaryText } : call
    })
  }

  /** Each call with the steps it reported (tool_progress), so a reloaded send-text shows its checklist and crops. */
  withSteps(conversationId: string, calls: ToolCallRecord[]): ToolCallRecord[] {
    const byCall = new Map<string, ToolStep[]>()
    for (const row of this.steps.all(conversationId)) {
      if (row.call_id === null) continue
      const parsed = ToolStepSchema.safeParse({
        step: row.step,
        ok: row.ok === 1 || row.ok === true,
        detail: row.detail ?? '',
        ...(row.detail_text ? { detailText: asToolText(parseJson(row.detail_text)) ?? undefined } : {}),
        at: row.at,
        ...(row.attachment ? { attachment: parseJson(row.attachment) } : {})
      })
      if (!parsed.success) continue
      const key = `${row.run_id}\u0000${row.call_id}`
      byCall.set(key, [...(byCall.get(key) ?? []), parsed.data])
    }
    if (byCall.size === 0) return calls
    return calls.map((call) => {
      const steps = byCall.get(`${call.runId}\u0000${call.id}`)
      return steps ? { ...call, steps } : call
    })
  }

  /**
   * Each delegate call with its sub-agents' steps and ends (subagent_event), so a reload shows them
   * inside the card (docs/tools.md, "Sub-agents"). Text deltas are left out: a child's answer is in
   * its run_completed.
   */
  withSubagents(conversationId: string, calls: ToolCallRecord[]): ToolCallRecord[] {
    const byCall = new Map<string, NonNullable<ToolCallRecord['subagentEvents']>>()
    for (const row of this.subagents.all(conversationId)) {
      if (row.call_id === null || row.child_run_id === null || row.event === null) continue
      const inner = parseJson(row.event)
      if (typeof inner !== 'object' || inner === null) continue
      const fields = inner as Record<string, unknown>
      const { type, runId, at } = fields
      if (typeof type !== 'string' || typeof runId !== 'string' || typeof at !== 'number') continue
      // The step's and the end's words only; a long answer is cut (the parent's result has it whole).
      const kept = SUBAGENT_FIELDS.filter((name) => typeof fields[name] === 'string').map((name) => [name, name === 'text' ? (fields[name] as string).slice(0, SUBAGENT_TEXT_MAX) : fields[name]])
      const event = { type, runId, at, ...Object.fromEntries(kept) }
      const key = `${row.run_id}\u0000${row.call_id}`
      byCall.set(key, [...(byCall.get(key) ?? []), { childRunId: row.child_run_id, task: row.task ?? '', event }])
    }
    if (byCall.size === 0) return calls
    return calls.map((call) => {
      const subagentEvents = byCall.get(`${call.runId}\u0000${call.id}`)
      return subagentEvents ? { ...call, subagentEvents } : call
    })
  }

  /** Each failed run with run_failed's error (its code and message code), not only the message. */
  /** Each run with how full its latest request's context was and its compactions (docs/architecture.md, "Compaction"). */
  withContext(conversationId: string, runs: RunSummary[]): RunSummary[] {
    const fills = new Map<string, NonNullable<RunSummary['context']>>()
    for (const row of this.contextFills.all(conversationId, conversationId)) {
      const fill = ContextFillSchema.safeParse(parseJson(row.data))
      if (fill.success) fills.set(row.run_id, fill.data)
    }
    const compactions = new Map<string, NonNullable<RunSummary['compactions']>>()
    for (const row of this.compactions.all(conversationId)) {
      const event = parseJson(row.data) as { at?: unknown } | null
      const compaction = CompactionSchema.safeParse(event)
      if (!compaction.success || typeof event?.at !== 'number') continue
      compactions.set(row.run_id, [...(compactions.get(row.run_id) ?? []), { ...compaction.data, at: event.at }])
    }
    if (fills.size === 0 && compactions.size === 0) return runs
    return runs.map((run) => {
      const context = fills.get(run.id)
      const made = compactions.get(run.id)
      return context || made ? { ...run, ...(context ? { context } : {}), ...(made ? { compactions: made } : {}) } : run
    })
  }

  withFailures(conversationId: string, runs: RunSummary[]): RunSummary[] {
    const byRun = new Map<string, RunFailure>()
    for (const row of this.failures.all(conversationId)) {
      const error = row.error === null ? null : asError(parseJson(row.error))
      if (error) byRun.set(row.run_id, error)
    }
    if (byRun.size === 0) return runs
    return runs.map((run) => {
      const failure = run.status === 'failed' ? byRun.get(run.id) : undefined
      return failure ? { ...run, failure } : run
    })
  }
}

function asToolText(value: unknown): ToolText | null {
  if (typeof value !== 'object' || value === null) return null
  const { key, params } = value as { key?: unknown; params?: unknown }
  if (typeof key !== 'string' || key === '') return null
  return isParams(params) ? { key, params } : { key }
}

function asError(value: unknown): RunFailure | null {
  if (typeof value !== 'object' || value === null) return null
  const { code, message, key, params } = value as Record<string, unknown>
  if (typeof code !== 'string' || typeof message !== 'string') return null
  return {
    code,
    message,
    ...(typeof key === 'string' ? { key } : {}),
    ...(isParams(params) ? { params } : {})
  }
}

function isParams(value: unknown): value is Record<string, string | number> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number')
  )
}
