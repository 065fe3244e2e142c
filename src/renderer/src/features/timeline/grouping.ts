/**
 * Folding a timeline's tool runs, without React or the DOM (unit-tested under plain Node:
 * test/unit/renderer/tool-grouping.test.ts).
 *
 * A run of consecutive tool calls of one assistant turn (nothing said in between) becomes one group.
 * A group of FOLD_MIN_CALLS or more folds into a single row — "Used 12 tools · 3 asked · 1 failed" —
 * that opens into compact rows (tool, summary, status), each of which opens into its full card.
 * Shorter runs keep their cards: folding two or three calls hides as much as it saves (and a
 * screenshot's picture or a write's approval is what the reader came for).
 *
 * Some calls are never hidden inside a folded group: one waiting for approval, one that was denied,
 * one that failed and one with a failed step show as their full cards under the group's row; calls
 * still running show as compact rows there, so a live run says what it is doing.
 */
import type { TimelineItem, ToolCallView } from '../../stores/reducers'

/** The smallest run of calls that folds into one row. */
export const FOLD_MIN_CALLS = 4

export interface ToolGroupCounts {
  /** Every call in the group. */
  total: number
  /** Calls the person was asked about (waiting, answered, or denied after asking). */
  asked: number
  /** Calls denied (by the person or by policy). */
  denied: number
  /** Calls that ran and failed. */
  failed: number
  /** Calls still going (pending, running or waiting for an answer). */
  open: number
}

export interface ToolGroup {
  /** `g:` + the first call's id: stable while the run grows. */
  key: string
  runId: string
  calls: readonly ToolCallView[]
  counts: ToolGroupCounts
}

/** The timeline with its long tool runs folded: messages, run ends and short runs' calls stay items. */
export type FoldedItem = TimelineItem | { kind: 'group'; key: string; at: number; group: ToolGroup }

/** One row of the message list, as the virtualiser lays it out. */
export type ListRow =
  /** A message, a run's end, or a call outside any fold (its full card). */
  | { kind: 'item'; key: string; item: TimelineItem }
  /** A folded run's summary row. */
  | { kind: 'group'; key: string; group: ToolGroup; expanded: boolean }
  /** A call of a folded run: a compact row, or its full card (`card`); `last` ends the group's block. */
  | { kind: 'call'; key: string; call: ToolCallView; groupKey: string; card: boolean; last: boolean }

const OPEN: ReadonlySet<ToolCallView['status']> = new Set(['pending', 'running', 'awaiting_approval'])

/** Still going: pending, running or waiting for an answer. */
export function isOpenCall(call: Pick<ToolCallView, 'status'>): boolean {
  return OPEN.has(call.status)
}

/** Whether one of the call's reported steps failed (a send-text task that could not verify its chat, …). */
export function hasFailedStep(call: Pick<ToolCallView, 'steps'>): boolean {
  return call.steps?.some((step) => !step.ok) ?? false
}

/**
 * Failed: it ended in an error, or a step it reported failed and it did not finish well anyway
 * (a step that failed and was retried to success is shown, not counted).
 */
export function isFailedCall(call: Pick<ToolCallView, 'status' | 'steps'>): boolean {
  return call.status === 'error' || (call.status !== 'completed' && call.status !== 'denied' && hasFailedStep(call))
}

/** Never hidden inside a folded group: waiting for approval, denied, failed, or with a failed step. */
export function alwaysShown(call: Pick<ToolCallView, 'status' | 'isError' | 'steps'>): boolean {
  return call.status === 'awaiting_approval' || call.status === 'denied' || call.status === 'error' || hasFailedStep(call)
}

/**
 * Whether the person was asked about this call. Live calls know what the engine did (a conversation
 * grant or full autonomy lets an "ask" run unasked); calls loaded from the store know only the
 * verdict, so an "ask" counts as asked.
 */
export function wasAsked(call: Pick<ToolCallView, 'status' | 'approval' | 'risk' | 'verdict'>): boolean {
  if (call.approval || call.status === 'awaiting_approval') return true
  if (call.risk) return call.risk.action === 'ask'
  return call.verdict === 'ask'
}

export function countCalls(calls: readonly ToolCallView[]): ToolGroupCounts {
  const counts: ToolGroupCounts = { total: calls.length, asked: 0, denied: 0, failed: 0, open: 0 }
  for (const call of calls) {
    if (wasAsked(call)) counts.asked++
    if (call.status === 'denied') counts.denied++
    if (isFailedCall(call)) counts.failed++
    if (isOpenCall(call)) counts.open++
  }
  return counts
}

/**
 * Groups consecutive tool calls of the same run (no message or run end between them); runs of
 * `minCalls` or more become one `group` item, shorter ones stay `tool` items.
 */
export function foldTimeline(items: readonly TimelineItem[], minCalls = FOLD_MIN_CALLS): FoldedItem[] {
  const out: FoldedItem[] = []
  let run: Array<Extract<TimelineItem, { kind: 'tool' }>> = []
  const flush = () => {
    if (run.length >= minCalls) {
      const calls = run.map((item) => item.call)
      const first = run[0]!
      out.push({
        kind: 'group',
        key: `g:${first.call.id}`,
        at: first.at,
        group: { key: `g:${first.call.id}`, runId: first.call.runId, calls, counts: countCalls(calls) }
      })
    } else {
      out.push(...run)
    }
    run = []
  }
  for (const item of items) {
    if (item.kind === 'tool') {
      if (run.length > 0 && run[0]!.call.runId !== item.call.runId) flush()
      run.push(item)
    } else {
      flush()
      out.push(item)
    }
  }
  flush()
  return out
}

/**
 * The list's rows: a folded group is its row plus the calls that are always shown (as cards) and
 * those still running (as compact rows); an expanded group lists every call, as a compact row
 * unless it is always shown or the person opened it.
 */
export function listRows(
  folded: readonly FoldedItem[],
  expandedGroups: ReadonlySet<string>,
  expandedCalls: ReadonlySet<string>
): ListRow[] {
  const rows: ListRow[] = []
  for (const item of folded) {
    if (item.kind !== 'group') {
      rows.push({ kind: 'item', key: item.key, item })
      continue
    }
    const { group } = item
    const expanded = expandedGroups.has(group.key)
    rows.push({ kind: 'group', key: group.key, group, expanded })
    const start = rows.length
    for (const call of group.calls) {
      const pinned = alwaysShown(call)
      if (!expanded && !pinned && !isOpenCall(call)) continue
      const card = pinned || expandedCalls.has(call.id)
      rows.push({ kind: 'call', key: `c:${call.id}`, call, groupKey: group.key, card, last: false })
    }
    const end = rows[rows.length - 1]
    if (rows.length > start && end?.kind === 'call') rows[rows.length - 1] = { ...end, last: true }
  }
  return rows
}

/** The tools a group used, most used first (for the row's hint), at most `limit` names. */
export function toolNames(calls: readonly ToolCallView[], limit = 3): { names: string[]; more: number } {
  const uses = new Map<string, number>()
  for (const call of calls) if (call.tool) uses.set(call.tool, (uses.get(call.tool) ?? 0) + 1)
  const sorted = [...uses.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name]) => name)
  return { names: sorted.slice(0, limit), more: Math.max(0, sorted.length - limit) }
}
