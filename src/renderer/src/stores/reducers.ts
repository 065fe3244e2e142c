/**
 * Pure state transitions of the renderer: a conversation's chat state is its `conversations.get`
 * snapshot with every later AgentEvent folded in. No React, no DOM, no bridge — unit-tested under
 * plain Node (test/unit/renderer/reducers.test.ts).
 */
import type {
  AgentEvent,
  AgentEventOf,
  ApprovalAnswer,
  ApprovalPreview,
  ApprovalResolver,
  Compaction,
  ContextFill,
  ToolAttachmentRef,
  ToolCallStatus,
  ToolText,
  Usage
} from '../../../shared/agent-events'
import type { RiskAssessment, Verdict } from '../../../shared/risk'
import type {
  ChatMessage,
  ConversationDetail,
  ConversationSummary,
  PendingApproval,
  RunSummary,
  ToolCallRecord
} from '../../../shared/bridge'
import type { ToolInfo } from '../../../shared/tool-text'
import { foldSubagentEvent, type SubagentView } from './subagents'

export interface OutputSegment {
  stream: 'stdout' | 'stderr'
  text: string
}

export interface ToolCallApproval {
  approvalId: string
  reason: string
  preview: ApprovalPreview
  expiresAt: number
  resolution: { answer: ApprovalAnswer; by: ApprovalResolver; reason?: string } | null
}

/** What `risk_assessed` said about a call (live only: snapshots keep just `verdict`). */
export interface ToolCallRisk {
  assessment: RiskAssessment
  /** What happened: may differ from assessment.verdict (a conversation grant allows an "ask"). */
  action: Verdict
  source: 'policy' | 'conversation_grant' | 'rejudged'
}

/** One step of a long call (`tool_progress`), live or read back with the snapshot (shared/bridge/conversations.ts). */
import type { ToolStep } from '../../../shared/bridge'
export type { ToolStep }

export interface ToolCallView extends ToolCallRecord {
  /** Live output while it streams, stdout and stderr kept apart so stderr can be shown in red. */
  segments: OutputSegment[]
  approval: ToolCallApproval | null
  risk: ToolCallRisk | null
  /** A delegate call's sub-agents and their steps, live (stores/subagents.ts). */
  subagents?: SubagentView[]
}

export interface RunView {
  id: string
  conversationId: string
  status: RunSummary['status']
  stopReason: string | null
  /** run_failed's error (with its message code when it has one); for older stored runs only the message is known (code ''). */
  error: { code: string; message: string; key?: string; params?: Record<string, string | number> } | null
  startedAt: number
  endedAt: number | null
  iterations: number | null
  /** Tokens its finished model calls used (features/usage); null until reported. */
  usage: Usage | null
  /** The question it answers (message versions: docs/architecture.md); absent when unknown. */
  answersMessageId?: string | null
  /** "provider:model" as run_started carried it; null when unknown (older records). */
  model: string | null
  /** How full the context was at its latest request (the header's meter); absent until reported. */
  context?: ContextFill
  /** Its compactions, shown as markers in the timeline. */
  compactions?: CompactionView[]
}

/** One compaction of a run's context (docs/architecture.md, "Compaction"), with when it happened. */
export type CompactionView = Compaction & { at: number }

export interface ChatSnapshot {
  conversationId: string
  messages: ChatMessage[]
  toolCalls: ToolCallView[]
  runs: RunView[]
}

export type TimelineItem =
  | { kind: 'message'; key: string; at: number; message: ChatMessage }
  | { kind: 'tool'; key: string; at: number; call: ToolCallView }
  | { kind: 'run_end'; key: string; at: number; run: RunView }
  | { kind: 'compaction'; key: string; at: number; compaction: CompactionView }

const OPEN_STATUSES: ReadonlySet<ToolCallStatus> = new Set(['pending', 'running', 'awaiting_approval'])

export function emptySnapshot(conversationId: string): ChatSnapshot {
  return { conversationId, messages: [], toolCalls: [], runs: [] }
}

/** A reloaded delegate call's sub-agents, folded from its logged nested events as the live view folds them. */
function subagentsFromRecord(call: ToolCallRecord): SubagentView[] {
  let views: SubagentView[] = []
  for (const nested of call.subagentEvents ?? []) {
    const event = { type: 'subagent_event', runId: call.runId, conversationId: call.conversationId, at: nested.event.at, callId: call.id, ...nested } as AgentEventOf<'subagent_event'>
    views = foldSubagentEvent(views, event)
  }
  return views
}

export function snapshotFromDetail(detail: ConversationDetail): ChatSnapshot {
  return {
    conversationId: detail.conversation.id,
    messages: [...detail.messages],
    toolCalls: detail.toolCalls.map((call) => ({
      ...call,
      ...(call.subagentEvents ? { subagents: subagentsFromRecord(call) } : {}),
      runtime: call.runtime ?? null,
      verdict: call.verdict ?? null,
      segments: [],
      approval: null,
      risk: null
    })),
    runs: detail.runs.map((run) => ({
      id: run.id,
      conversationId: run.conversationId,
      status: run.status,
      stopReason: run.stopReason,
      // The whole error (its message code too) when the log had it; older records know only the message.
      error: run.failure ?? (run.error ? { code: '', message: run.error } : null),
      startedAt: run.startedAt,
      endedAt: run.endedAt,
      iterations: null,
      usage: run.usage,
      model: run.model ?? null,
      ...(run.answersMessageId ? { answersMessageId: run.answersMessageId } : {}),
      ...(run.context ? { context: run.context } : {}),
      ...(run.compactions?.length ? { compactions: run.compactions } : {})
    }))
  }
}

function updateCall(
  state: ChatSnapshot,
  callId: string,
  update: (call: ToolCallView) => ToolCallView,
  create?: () => ToolCallView
): ChatSnapshot {
  const index = state.toolCalls.findIndex((c) => c.id === callId)
  if (index === -1) {
    if (!create) return state
    return { ...state, toolCalls: [...state.toolCalls, update(create())] }
  }
  const toolCalls = state.toolCalls.slice()
  toolCalls[index] = update(toolCalls[index]!)
  return { ...state, toolCalls }
}

function updateRun(state: ChatSnapshot, runId: string, update: (run: RunView) => RunView, createAt: number): ChatSnapshot {
  const index = state.runs.findIndex((r) => r.id === runId)
  const runs = state.runs.slice()
  if (index === -1) {
    runs.push(update(newRun(state.conversationId, runId, createAt)))
  } else {
    runs[index] = update(runs[index]!)
  }
  return { ...state, runs }
}

function newRun(conversationId: string, runId: string, at: number): RunView {
  return {
    id: runId,
    conversationId,
    status: 'running',
    stopReason: null,
    error: null,
    startedAt: at,
    endedAt: null,
    iterations: null,
    usage: null,
    model: null
  }
}

function newCall(
  event: { runId: string; conversationId: string; callId: string; at: number },
  tool: string,
  args: unknown,
  summary?: string,
  summaryText?: ToolText
): ToolCallView {
  return {
    id: event.callId,
    conversationId: event.conversationId,
    runId: event.runId,
    tool,
    args,
    status: 'running',
    isError: false,
    output: '',
    startedAt: event.at,
    endedAt: null,
    durationMs: null,
    runtime: null,
    verdict: null,
    ...(summary !== undefined ? { summary } : {}),
    ...(summaryText !== undefined ? { summaryText } : {}),
    segments: [],
    approval: null,
    risk: null
  }
}

/**
 * The user's message and a running run, idempotently: called on run_started and also when
 * `agent.send` answers (whichever comes first), so the message shows at once either way.
 */
export function ensureRunStarted(
  state: ChatSnapshot,
  run: {
    runId: string
    conversationId: string
    prompt: string
    at: number
    attachments?: ToolAttachmentRef[]
    /** The question it answers: a regenerated answer's is already here (message versions). */
    question?: { id: string; parentRunId: string | null }
  }
): ChatSnapshot {
  if (run.conversationId !== state.conversationId) return state
  let next = state
  const { question } = run
  const runIndex = next.runs.findIndex((r) => r.id === run.runId)
  if (runIndex === -1) {
    const created = newRun(run.conversationId, run.runId, run.at)
    next = { ...next, runs: [...next.runs, question ? { ...created, answersMessageId: question.id } : created] }
  } else if (question && !next.runs[runIndex]!.answersMessageId) {
    next = { ...next, runs: next.runs.map((r, i) => (i === runIndex ? { ...r, answersMessageId: question.id } : r)) }
  }
  const attachments = run.attachments?.length ? { attachments: run.attachments } : {}
  const index = question
    ? next.messages.findIndex((m) => m.id === question.id)
    : next.messages.findIndex((m) => m.runId === run.runId && m.role === 'user')
  if (index === -1) {
    const message: ChatMessage = {
      id: question?.id ?? `local_user_${run.runId}`,
      conversationId: run.conversationId,
      runId: run.runId,
      role: 'user',
      content: run.prompt,
      createdAt: run.at,
      ...attachments,
      ...(question ? { parentRunId: question.parentRunId } : {})
    }
    next = { ...next, messages: [...next.messages, message] }
  } else if (run.attachments?.length && !next.messages[index]!.attachments) {
    // agent.send answered first (it knows no attachment ids): run_started brings them.
    next = { ...next, messages: next.messages.map((m, i) => (i === index ? { ...m, ...attachments } : m)) }
  }
  return next
}

function closeOpenCalls(state: ChatSnapshot, runId: string, at: number): ChatSnapshot {
  if (!state.toolCalls.some((c) => c.runId === runId && OPEN_STATUSES.has(c.status))) return state
  return {
    ...state,
    toolCalls: state.toolCalls.map((c) =>
      c.runId === runId && OPEN_STATUSES.has(c.status)
        ? { ...c, status: 'interrupted', endedAt: at, durationMs: at - c.startedAt }
        : c
    )
  }
}

function appendSegment(segments: OutputSegment[], stream: OutputSegment['stream'], chunk: string): OutputSegment[] {
  const last = segments[segments.length - 1]
  if (last && last.stream === stream) {
    return [...segments.slice(0, -1), { stream, text: last.text + chunk }]
  }
  return [...segments, { stream, text: chunk }]
}

/** Folds one AgentEvent into the open conversation's state; events of other conversations are ignored. */
export function reduceChat(state: ChatSnapshot, event: AgentEvent): ChatSnapshot {
  if (event.conversationId !== state.conversationId) return state
  switch (event.type) {
    case 'run_started':
      return updateRun(ensureRunStarted(state, event), event.runId, (run) => ({ ...run, model: event.model }), event.at)

    case 'text_delta': {
      const index = state.messages.findIndex((m) => m.id === event.messageId)
      if (index === -1) {
        const message: ChatMessage = {
          id: event.messageId,
          conversationId: event.conversationId,
          runId: event.runId,
          role: 'assistant',
          content: event.delta,
          createdAt: event.at
        }
        return { ...state, messages: [...state.messages, message] }
      }
      const messages = state.messages.slice()
      const current = messages[index]!
      messages[index] = { ...current, content: current.content + event.delta }
      return { ...state, messages }
    }

    case 'tool_call_started':
      return updateCall(
        state,
        event.callId,
        (call) => ({
          ...call,
          tool: event.tool,
          args: event.args,
          ...(event.summary !== undefined ? { summary: event.summary } : {}),
          ...(event.summaryText !== undefined ? { summaryText: event.summaryText } : {})
        }),
        () => newCall(event, event.tool, event.args, event.summary, event.summaryText)
      )

    case 'tool_output_delta':
      return updateCall(
        state,
        event.callId,
        (call) => ({
          ...call,
          output: call.output + event.chunk,
          // Output loaded from the store has no stream marks: keep it as stdout ahead of the live part.
          segments: appendSegment(
            call.segments.length === 0 && call.output ? [{ stream: 'stdout', text: call.output }] : call.segments,
            event.stream,
            event.chunk
          )
        }),
        () => newCall(event, '', undefined)
      )

    case 'tool_progress': {
      const step: ToolStep = {
        step: event.step,
        ok: event.ok,
        detail: event.detail,
        ...(event.detailText !== undefined ? { detailText: event.detailText } : {}),
        ...(event.attachment !== undefined ? { attachment: event.attachment } : {}),
        at: event.at
      }
      return updateCall(
        state,
        event.callId,
        (call) => ({
          ...call,
          tool: call.tool || event.tool,
          steps: call.steps ? [...call.steps, step] : [step]
        }),
        () => newCall(event, event.tool, undefined)
      )
    }

    case 'risk_assessed':
      return updateCall(
        state,
        event.callId,
        (call) => ({
          ...call,
          tool: event.tool || call.tool,
          verdict: event.assessment.verdict,
          risk: { assessment: event.assessment, action: event.action, source: event.source }
        }),
        () => newCall(event, event.tool, undefined)
      )

    case 'approval_requested':
      return updateCall(
        state,
        event.callId,
        (call) => ({
          ...call,
          status: 'awaiting_approval',
          approval: {
            approvalId: event.approvalId,
            reason: event.reason,
            preview: event.preview,
            expiresAt: event.expiresAt,
            resolution: null
          }
        }),
        () => newCall(event, event.tool, event.args)
      )

    case 'approval_resolved':
      return updateCall(state, event.callId, (call) => ({
        ...call,
        status:
          call.status === 'awaiting_approval' ? (event.answer === 'deny' ? 'denied' : 'running') : call.status,
        approval: call.approval
          ? { ...call.approval, resolution: { answer: event.answer, by: event.by, reason: event.reason } }
          : call.approval,
        // The same record a reload reads back from the store (store/approval-answers.ts).
        answered: {
          answer: event.answer,
          by: event.by,
          at: event.at,
          ...(event.reason ? { reason: event.reason } : {}),
          ...(event.via ? { via: event.via } : {})
        }
      }))

    case 'subagent_event':
      return updateCall(state, event.callId, (call) => ({ ...call, subagents: foldSubagentEvent(call.subagents ?? [], event) }))

    case 'tool_call_completed':
      return updateCall(
        state,
        event.callId,
        (call) => ({
          ...call,
          tool: event.tool || call.tool,
          status: event.status,
          isError: event.isError,
          output: event.output,
          ...(event.display !== undefined ? { display: event.display } : {}),
          runtime: event.runtime ?? call.runtime ?? null,
          ...(event.attachments !== undefined ? { attachments: event.attachments } : {}),
          ...(event.changes !== undefined ? { changes: event.changes } : {}),
          ...(event.cached ? { cached: true } : {}),
          segments: [],
          endedAt: event.at,
          durationMs: event.durationMs
        }),
        () => newCall(event, event.tool, undefined)
      )

    case 'context_usage':
      return updateRun(state, event.runId, (run) => ({ ...run, context: { inputTokens: event.inputTokens, window: event.window, source: event.source } }), event.at)

    case 'context_compacted': {
      const { type: _type, runId: _runId, conversationId: _conversationId, ...compaction } = event
      return updateRun(state, event.runId, (run) => ({ ...run, compactions: [...(run.compactions ?? []), compaction] }), event.at)
    }

    case 'run_completed': {
      let next = updateRun(
        state,
        event.runId,
        (run) => ({
          ...run,
          status: event.stopReason === 'cancelled' ? 'cancelled' : 'completed',
          stopReason: event.stopReason,
          endedAt: event.at,
          iterations: event.iterations,
          usage: event.usage
        }),
        event.at
      )
      // A final answer that was never streamed (no text_delta) still has to be shown.
      const hasAnswer = next.messages.some((m) => m.runId === event.runId && m.role === 'assistant')
      if (!hasAnswer && event.text.trim()) {
        const message: ChatMessage = {
          id: `local_final_${event.runId}`,
          conversationId: event.conversationId,
          runId: event.runId,
          role: 'assistant',
          content: event.text,
          createdAt: event.at
        }
        next = { ...next, messages: [...next.messages, message] }
      }
      return closeOpenCalls(next, event.runId, event.at)
    }

    case 'run_failed': {
      const next = updateRun(
        state,
        event.runId,
        (run) => ({ ...run, status: 'failed', error: event.error, endedAt: event.at, usage: event.usage ?? run.usage }),
        event.at
      )
      return closeOpenCalls(next, event.runId, event.at)
    }
  }
}

export type ToolVerdictKind = 'safe' | 'granted' | 'asked' | 'approved' | 'blocked'

/**
 * The card's risk badge: what the engine decided and how it ended. Live calls know the action
 * and source (risk_assessed); calls loaded from the store know only the verdict, so an "ask"
 * that ran reads as approved.
 */
export function toolVerdictKind(call: Pick<ToolCallView, 'verdict' | 'risk' | 'status' | 'approval' | 'answered'>): ToolVerdictKind | null {
  const verdict = call.risk?.assessment.verdict ?? call.verdict ?? null
  if (verdict === null || verdict === undefined) return null
  if (verdict === 'deny') return 'blocked'
  if (call.risk?.source === 'conversation_grant') return 'granted'
  if (verdict === 'allow') return 'safe'
  const resolution = call.answered ?? call.approval?.resolution
  if (resolution) return resolution.answer === 'deny' ? 'asked' : 'approved'
  // Live and not answered yet: still asking. Loaded from the store: an "ask" that ran was approved.
  if (call.risk) return 'asked'
  return call.status === 'completed' || call.status === 'error' || call.status === 'running' ? 'approved' : 'asked'
}

/** The run still going in this conversation, if any (at most one by construction of the loop). */
export function activeRun(state: ChatSnapshot | null): RunView | null {
  if (!state) return null
  for (let i = state.runs.length - 1; i >= 0; i--) {
    const run = state.runs[i]!
    if (run.status === 'running') return run
  }
  return null
}

/**
 * Messages, tool calls and run outcomes in time order. Stable on ties, and a run's user message
 * always comes before anything else of that run.
 */
export function buildTimeline(
  state: ChatSnapshot,
  /** Runs that get an end row although they ended quietly (they carry an answer's actions: stores/versions.ts). */
  endRowsFor: ReadonlySet<string> = new Set()
): TimelineItem[] {
  const items: Array<TimelineItem & { rank: number; order: number }> = []
  let order = 0
  for (const message of state.messages) {
    items.push({
      kind: 'message',
      key: `m:${message.id}`,
      at: message.createdAt,
      message,
      rank: message.role === 'user' ? 0 : 1,
      order: order++
    })
  }
  for (const call of state.toolCalls) {
    items.push({ kind: 'tool', key: `t:${call.id}`, at: call.startedAt, call, rank: 1, order: order++ })
  }
  // A run's outcome goes after everything it produced, even if its end time is unknown or early.
  const lastAt = new Map<string, number>()
  for (const item of items) {
    const runId = item.kind === 'message' ? item.message.runId : item.kind === 'tool' ? item.call.runId : null
    if (runId) lastAt.set(runId, Math.max(lastAt.get(runId) ?? 0, item.at))
  }
  for (const run of state.runs) {
    // A marker where old steps were summarised (or the model refused a request); eliding old outputs alone happens often on a small window and is no news.
    for (const compaction of (run.compactions ?? []).filter((made) => made.summarised > 0 || made.forced)) {
      items.push({ kind: 'compaction', key: `c:${run.id}:${compaction.at}:${order}`, at: compaction.at, compaction, rank: 1, order: order++ })
    }
    const noteworthy =
      run.status === 'failed' ||
      run.status === 'cancelled' ||
      run.status === 'interrupted' ||
      run.stopReason === 'max_iterations'
    if (noteworthy || endRowsFor.has(run.id)) {
      const at = Math.max(run.endedAt ?? run.startedAt, lastAt.get(run.id) ?? 0)
      items.push({ kind: 'run_end', key: `r:${run.id}`, at, run, rank: 2, order: order++ })
    }
  }
  items.sort((a, b) => a.at - b.at || a.rank - b.rank || a.order - b.order)
  return items.map(({ rank: _rank, order: _order, ...item }) => item as TimelineItem)
}

/** The approval queue: oldest first, one entry per approval id. */
export function reduceApprovals(list: PendingApproval[], event: AgentEvent): PendingApproval[] {
  switch (event.type) {
    case 'approval_requested':
      if (list.some((a) => a.approvalId === event.approvalId)) return list
      return [
        ...list,
        {
          approvalId: event.approvalId,
          conversationId: event.conversationId,
          runId: event.runId,
          callId: event.callId,
          tool: event.tool,
          args: event.args,
          reason: event.reason,
          preview: event.preview,
          assessment: event.assessment,
          bindingHash: event.bindingHash,
          expiresAt: event.expiresAt,
          ...(event.onlyOnce !== undefined ? { onlyOnce: event.onlyOnce } : {}),
          ...(event.delegatedTask !== undefined ? { delegatedTask: event.delegatedTask } : {})
        }
      ]
    case 'approval_resolved':
      return list.some((a) => a.approvalId === event.approvalId)
        ? list.filter((a) => a.approvalId !== event.approvalId)
        : list
    case 'run_completed':
    case 'run_failed':
      // The run is over; whatever it was waiting for can no longer be answered.
      return list.some((a) => a.runId === event.runId) ? list.filter((a) => a.runId !== event.runId) : list
    default:
      return list
  }
}

/** Merges a fresh `approvals.pending` answer with what events already told us, keeping order. */
export function mergePendingApprovals(
  current: PendingApproval[],
  loaded: PendingApproval[],
  now: number
): PendingApproval[] {
  const ids = new Set(loaded.map((a) => a.approvalId))
  return [...loaded, ...current.filter((a) => !ids.has(a.approvalId) && a.expiresAt > now)]
}

/** Pinned first (most recently pinned on top), then by activity: the order conversations.list gives. */
export function sortConversations(list: ConversationSummary[]): ConversationSummary[] {
  // pinnedAt is a time (> 0), so an unpinned conversation's 0 sorts after every pinned one.
  return [...list].sort(
    (a, b) => (b.pinnedAt ?? 0) - (a.pinnedAt ?? 0) || b.updatedAt - a.updatedAt || b.createdAt - a.createdAt
  )
}

/** Which conversations have a run going, from the event stream (for the sidebar). */
export function reduceRunningConversations(running: ReadonlySet<string>, event: AgentEvent): ReadonlySet<string> {
  if (event.type === 'run_started' && !running.has(event.conversationId)) {
    return new Set(running).add(event.conversationId)
  }
  if ((event.type === 'run_completed' || event.type === 'run_failed') && running.has(event.conversationId)) {
    const next = new Set(running)
    next.delete(event.conversationId)
    return next
  }
  return running
}

/** The tool catalogue (`tools.list`) keyed by tool name; own properties only, so any name is safe as a key. */
export function catalogueByName(list: readonly ToolInfo[]): Record<string, ToolInfo> {
  return Object.fromEntries(list.map((tool) => [tool.name, tool]))
}

/** Raster types an <img> may show from tool output; anything else is listed as a file. */
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif'])

/** Whether an attachment of this media type is shown as an image (raster types only). */
export function isShownImageType(mediaType: string): boolean {
  return IMAGE_TYPES.has(mediaType.toLowerCase())
}

/** A `data:` URL for base64 image data, or null when the media type is not one we show as an image. */
export function attachmentDataUrl(mediaType: string, base64: string): string | null {
  const type = mediaType.toLowerCase()
  return IMAGE_TYPES.has(type) ? `data:${type};base64,${base64}` : null
}
