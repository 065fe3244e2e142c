import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../src/shared/agent-events'
import type { RiskAssessment } from '../../../src/shared/risk'
import {
  alwaysShown,
  countCalls,
  FOLD_MIN_CALLS,
  foldTimeline,
  listRows,
  toolNames,
  wasAsked
} from '../../../src/renderer/src/features/timeline/grouping'
import { buildTimeline, type ChatSnapshot, emptySnapshot, reduceChat } from '../../../src/renderer/src/stores/reducers'

const conv = 'conv_1'
const allow: RiskAssessment = { verdict: 'allow', findings: [], alwaysRule: null }
const ask: RiskAssessment = {
  verdict: 'ask',
  findings: [{ rule: 'tool.fs_write', message: 'file_write changes files in the workspace.', verdict: 'ask', span: null }],
  alwaysRule: null
}
const deny: RiskAssessment = {
  verdict: 'deny',
  findings: [{ rule: 'path.outside', message: 'Outside the workspace.', verdict: 'deny', span: null }],
  alwaysRule: null
}

/** Builds one conversation's events with increasing timestamps. */
function script() {
  const events: AgentEvent[] = []
  let at = 1_000
  let n = 0
  const api = {
    events,
    run(runId: string, prompt = 'go') {
      events.push({ type: 'run_started', runId, conversationId: conv, at: at++, prompt, model: 'm' })
      return api
    },
    text(runId: string, delta: string) {
      events.push({ type: 'text_delta', runId, conversationId: conv, at: at++, messageId: `msg_${n++}`, delta })
      return api
    },
    /** A call with its outcome: ok, failed, asked (then approved), denied (asked, then denied), blocked, running, waiting. */
    call(
      runId: string,
      outcome: 'ok' | 'failed' | 'asked' | 'denied' | 'blocked' | 'running' | 'waiting' | 'granted' = 'ok',
      tool = 'file_list'
    ) {
      const callId = `call_${n++}`
      const scope = { runId, conversationId: conv, callId }
      events.push({ type: 'tool_call_started', ...scope, at: at++, tool, args: { path: callId } })
      const assessment = outcome === 'blocked' ? deny : outcome === 'asked' || outcome === 'denied' || outcome === 'waiting' || outcome === 'granted' ? ask : allow
      const action = outcome === 'granted' ? 'allow' : assessment.verdict
      const source = outcome === 'granted' ? 'conversation_grant' : 'policy'
      events.push({ type: 'risk_assessed', ...scope, at: at++, tool, assessment, action, source })
      if (outcome === 'asked' || outcome === 'denied' || outcome === 'waiting') {
        events.push({
          type: 'approval_requested',
          ...scope,
          at: at++,
          approvalId: `appr_${callId}`,
          tool,
          args: { path: callId },
          reason: 'asks',
          preview: { title: { key: 'Write' }, fields: [] },
          assessment,
          bindingHash: `hash_${callId}`,
          expiresAt: at + 60_000
        })
        if (outcome === 'waiting') return api
        events.push({
          type: 'approval_resolved',
          ...scope,
          at: at++,
          approvalId: `appr_${callId}`,
          answer: outcome === 'denied' ? 'deny' : 'allow_once',
          by: 'user'
        })
      }
      if (outcome === 'running') return api
      const status = outcome === 'failed' ? 'error' : outcome === 'denied' || outcome === 'blocked' ? 'denied' : 'completed'
      events.push({
        type: 'tool_call_completed',
        ...scope,
        at: at++,
        tool,
        status,
        isError: outcome === 'failed',
        output: outcome === 'failed' ? 'No such file' : 'ok',
        durationMs: 1
      })
      return api
    },
    calls(runId: string, count: number) {
      for (let i = 0; i < count; i++) api.call(runId)
      return api
    },
    end(runId: string) {
      events.push({ type: 'run_completed', runId, conversationId: conv, at: at++, text: '', stopReason: 'final', iterations: 1, usage: {} })
      return api
    },
    snapshot(): ChatSnapshot {
      return events.reduce(reduceChat, emptySnapshot(conv))
    }
  }
  return api
}

const kinds = (items: ReturnType<typeof foldTimeline>) =>
  items.map((item) => (item.kind === 'group' ? `group(${item.group.calls.length})` : item.kind))

describe('foldTimeline: which calls fold', () => {
  it('folds a run of FOLD_MIN_CALLS or more consecutive calls of one turn into one group', () => {
    expect(FOLD_MIN_CALLS).toBe(4)
    const s = script().run('r1').text('r1', 'Looking.').calls('r1', 12).text('r1', 'Done.').end('r1')
    const folded = foldTimeline(buildTimeline(s.snapshot()))
    expect(kinds(folded)).toEqual(['message', 'message', 'group(12)', 'message'])
    const group = folded.find((item) => item.kind === 'group')!
    expect(group.kind === 'group' && group.key).toBe(`g:${s.snapshot().toolCalls[0]!.id}`)
  })

  it('keeps shorter runs (a single call between texts, two or three calls) as their cards', () => {
    const s = script()
      .run('r1')
      .text('r1', 'One.')
      .call('r1')
      .text('r1', 'Three.')
      .calls('r1', 3)
      .text('r1', 'Four.')
      .calls('r1', 4)
      .end('r1')
    expect(kinds(foldTimeline(buildTimeline(s.snapshot())))).toEqual([
      'message',
      'message',
      'tool',
      'message',
      'tool',
      'tool',
      'tool',
      'message',
      'group(4)'
    ])
  })

  it('text between calls splits the run; so does another run', () => {
    const s = script().run('r1').calls('r1', 5).text('r1', 'Halfway.').calls('r1', 5).end('r1').run('r2').calls('r2', 2).end('r2')
    const folded = foldTimeline(buildTimeline(s.snapshot()))
    expect(kinds(folded)).toEqual(['message', 'group(5)', 'message', 'group(5)', 'message', 'tool', 'tool'])
    // Two runs whose calls touch (no message between): never one group.
    const t = script().calls('a', 4).calls('b', 4)
    const groups = foldTimeline(buildTimeline(t.snapshot())).filter((item) => item.kind === 'group')
    expect(groups.map((g) => g.kind === 'group' && g.group.runId)).toEqual(['a', 'b'])
  })

  it('takes a different threshold', () => {
    const s = script().run('r1').calls('r1', 2).end('r1')
    expect(kinds(foldTimeline(buildTimeline(s.snapshot()), 2))).toEqual(['message', 'group(2)'])
  })
})

describe('counts', () => {
  it('counts asked, denied and failed calls from their status and risk', () => {
    const s = script()
      .run('r1')
      .call('r1', 'ok')
      .call('r1', 'asked', 'file_write')
      .call('r1', 'denied', 'shell')
      .call('r1', 'blocked', 'shell')
      .call('r1', 'failed', 'file_read')
      .call('r1', 'granted', 'shell')
      .call('r1', 'waiting', 'file_write')
    const calls = s.snapshot().toolCalls
    expect(countCalls(calls)).toEqual({ total: 7, asked: 3, denied: 2, failed: 1, open: 1 })
    // A conversation grant ran without asking; a blocked call was never a question.
    expect(calls.map(wasAsked)).toEqual([false, true, true, false, false, false, true])
  })

  it('calls loaded from the store know only their verdict: an "ask" counts as asked', () => {
    const stored = [
      { status: 'completed' as const, approval: null, risk: null, verdict: 'ask' as const },
      { status: 'completed' as const, approval: null, risk: null, verdict: 'allow' as const },
      { status: 'completed' as const, approval: null, risk: null, verdict: null }
    ]
    expect(stored.map(wasAsked)).toEqual([true, false, false])
  })

  it('names the tools a group used, most used first', () => {
    const s = script().call('r', 'ok', 'file_list').call('r', 'ok', 'shell').call('r', 'ok', 'file_list').call('r', 'ok', 'a').call('r', 'ok', 'b')
    expect(toolNames(s.snapshot().toolCalls)).toEqual({ names: ['file_list', 'a', 'b'], more: 1 })
  })
})

describe('listRows: which calls always show', () => {
  const snapshot = script()
    .run('r1')
    .call('r1', 'ok')
    .call('r1', 'failed', 'file_read')
    .call('r1', 'ok')
    .call('r1', 'denied', 'shell')
    .call('r1', 'ok')
    .call('r1', 'asked', 'file_write')
    .call('r1', 'running', 'shell')
    .call('r1', 'waiting', 'file_write')
    .snapshot()
  const folded = foldTimeline(buildTimeline(snapshot))
  const group = folded.find((item) => item.kind === 'group')!
  const key = group.kind === 'group' ? group.group.key : ''
  const describeRows = (rows: ReturnType<typeof listRows>) =>
    rows.map((row) =>
      row.kind === 'item'
        ? row.item.kind
        : row.kind === 'group'
          ? `group${row.expanded ? '+' : '-'}`
          : `${row.card ? 'card' : 'row'}:${row.call.status}${row.last ? '.' : ''}`
    )

  it('folded: the group row, then the failed, denied and waiting calls as cards and the running one as a row', () => {
    expect(describeRows(listRows(folded, new Set(), new Set()))).toEqual([
      'message',
      'group-',
      'card:error',
      'card:denied',
      'row:running',
      'card:awaiting_approval.'
    ])
    expect(snapshot.toolCalls.map(alwaysShown)).toEqual([false, true, false, true, false, false, false, true])
  })

  it('expanded: every call in order, compact unless always shown or opened', () => {
    const opened = snapshot.toolCalls[2]!.id
    expect(describeRows(listRows(folded, new Set([key]), new Set([opened])))).toEqual([
      'message',
      'group+',
      'row:completed',
      'card:error',
      'card:completed',
      'card:denied',
      'row:completed',
      'row:completed',
      'row:running',
      'card:awaiting_approval.'
    ])
  })

  it('a folded group with nothing to show is its row alone; keys are stable and unique', () => {
    const quiet = foldTimeline(buildTimeline(script().run('r1').calls('r1', 6).end('r1').snapshot()))
    const rows = listRows(quiet, new Set(), new Set())
    expect(describeRows(rows)).toEqual(['message', 'group-'])
    const all = listRows(folded, new Set([key]), new Set())
    expect(new Set(all.map((row) => row.key)).size).toBe(all.length)
  })
})
