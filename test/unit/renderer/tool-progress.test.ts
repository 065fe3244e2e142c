/**
 * A long call's steps (`tool_progress`) folded into the timeline state: appended in order to the
 * call's `steps`, on a call seen or not yet seen, kept through its completion, ignored for other
 * conversations; a failed step pins the call in a folded run and counts as failed unless the call
 * finished well; an approval that may only be answered once keeps `onlyOnce`; and step codes are
 * translated in both languages, unknown ones shown as they are.
 */
import { describe, expect, it } from 'vitest'
import type { AgentEvent, AgentEventOf, ToolAttachmentRef } from '../../../src/shared/agent-events'
import type { RiskAssessment } from '../../../src/shared/risk'
import { alwaysShown, countCalls, foldTimeline, hasFailedStep, isFailedCall, listRows } from '../../../src/renderer/src/features/timeline/grouping'
import { stepLabel } from '../../../src/renderer/src/features/timeline/step-label'
import { makeTranslator } from '../../../src/renderer/src/i18n/translator'
import {
  buildTimeline,
  type ChatSnapshot,
  emptySnapshot,
  reduceApprovals,
  reduceChat
} from '../../../src/renderer/src/stores/reducers'

const conv = 'conv_1'
const base = { runId: 'run_1', conversationId: conv }
const crop: ToolAttachmentRef = { id: 'att_1', kind: 'image', mediaType: 'image/png', width: 240, height: 40, bytes: 900 }

function progress(callId: string, step: string, ok: boolean, detail: string, at: number, attachment?: ToolAttachmentRef): AgentEventOf<'tool_progress'> {
  return { type: 'tool_progress', ...base, at, callId, tool: 'chat_send', step, ok, detail, ...(attachment ? { attachment } : {}) }
}

function fold(state: ChatSnapshot, events: readonly AgentEvent[]): ChatSnapshot {
  return events.reduce(reduceChat, state)
}

describe('tool_progress in the chat reducer', () => {
  it('appends each step, in order, to a call that started', () => {
    const state = fold(emptySnapshot(conv), [
      { type: 'run_started', ...base, at: 1000, prompt: 'send hi to File Transfer', model: 'm' },
      { type: 'tool_call_started', ...base, at: 1100, callId: 'call_1', tool: 'chat_send', args: { app: 'weixin', chat: 'File Transfer', text: 'hi' } },
      progress('call_1', 'activated', true, 'WeChat', 1200),
      progress('call_1', 'searched', true, 'File Transfer', 1300),
      progress('call_1', 'target_verified', true, 'File Transfer', 1400, crop)
    ])
    const call = state.toolCalls[0]!
    expect(call.status).toBe('running')
    expect(call.steps).toEqual([
      { step: 'activated', ok: true, detail: 'WeChat', at: 1200 },
      { step: 'searched', ok: true, detail: 'File Transfer', at: 1300 },
      { step: 'target_verified', ok: true, detail: 'File Transfer', attachment: crop, at: 1400 }
    ])
    // A step is no output: the output stays what the tool printed.
    expect(call.output).toBe('')
    expect(call.segments).toEqual([])
  })

  it('creates the call when a step arrives first, and keeps the steps through completion', () => {
    let state = fold(emptySnapshot(conv), [progress('call_x', 'activated', true, 'WeChat', 500)])
    expect(state.toolCalls).toHaveLength(1)
    expect(state.toolCalls[0]).toMatchObject({ id: 'call_x', tool: 'chat_send', status: 'running', startedAt: 500 })
    state = fold(state, [
      { type: 'tool_call_started', ...base, at: 510, callId: 'call_x', tool: 'chat_send', args: { chat: 'A' }, summary: 'A' },
      progress('call_x', 'header_verified', false, 'B (expected A)', 600, crop),
      {
        type: 'tool_call_completed',
        ...base,
        at: 700,
        callId: 'call_x',
        tool: 'chat_send',
        status: 'error',
        isError: true,
        output: 'The open chat is "B", not "A": nothing was sent.',
        durationMs: 200
      }
    ])
    const call = state.toolCalls[0]!
    expect(call).toMatchObject({ status: 'error', summary: 'A', args: { chat: 'A' } })
    expect(call.steps?.map((s) => [s.step, s.ok])).toEqual([
      ['activated', true],
      ['header_verified', false]
    ])
    expect(call.steps?.[1]?.attachment).toEqual(crop)
  })

  it('leaves the state untouched for another conversation, and other calls as they were', () => {
    const start = fold(emptySnapshot(conv), [
      { type: 'tool_call_started', ...base, at: 1, callId: 'a', tool: 'file_list', args: {} },
      { type: 'tool_call_started', ...base, at: 2, callId: 'b', tool: 'chat_send', args: {} }
    ])
    const other = reduceChat(start, { ...progress('b', 'sent', true, '', 3), conversationId: 'conv_2' })
    expect(other).toBe(start)
    const next = reduceChat(start, progress('b', 'sent', true, '', 3))
    expect(next.toolCalls[0]).toBe(start.toolCalls[0])
    expect(start.toolCalls[1]!.steps).toBeUndefined()
    expect(next.toolCalls[1]!.steps).toHaveLength(1)
  })

  it('does not mutate the previous steps array (each state is its own)', () => {
    const one = fold(emptySnapshot(conv), [progress('c', 'activated', true, '', 1)])
    const before = one.toolCalls[0]!.steps
    const two = reduceChat(one, progress('c', 'searched', true, '', 2))
    expect(before).toHaveLength(1)
    expect(two.toolCalls[0]!.steps).toHaveLength(2)
  })
})

describe('failed steps in folded runs', () => {
  const allow: RiskAssessment = { verdict: 'allow', findings: [], alwaysRule: null }

  function runOf(lastSteps: AgentEvent[], end?: 'completed' | 'error'): ChatSnapshot {
    const events: AgentEvent[] = [{ type: 'run_started', ...base, at: 1, prompt: 'go', model: 'm' }]
    let at = 10
    for (let i = 0; i < 5; i++) {
      const scope = { ...base, callId: `call_${i}` }
      events.push({ type: 'tool_call_started', ...scope, at: at++, tool: i === 4 ? 'chat_send' : 'file_list', args: { i } })
      events.push({ type: 'risk_assessed', ...scope, at: at++, tool: 'file_list', assessment: allow, action: 'allow', source: 'policy' })
      if (i < 4) {
        events.push({ type: 'tool_call_completed', ...scope, at: at++, tool: 'file_list', status: 'completed', isError: false, output: '', durationMs: 1 })
      }
    }
    events.push(...lastSteps)
    if (end) {
      events.push({
        type: 'tool_call_completed',
        ...base,
        callId: 'call_4',
        at: 100,
        tool: 'chat_send',
        status: end,
        isError: end === 'error',
        output: '',
        durationMs: 1
      })
    }
    return fold(emptySnapshot(conv), events)
  }

  it('pins a running call with a failed step under the folded row and counts it failed', () => {
    const state = runOf([progress('call_4', 'activated', true, '', 50), progress('call_4', 'searched', false, 'no result', 60)])
    const call = state.toolCalls[4]!
    expect(hasFailedStep(call)).toBe(true)
    expect(alwaysShown(call)).toBe(true)
    expect(isFailedCall(call)).toBe(true)
    const folded = foldTimeline(buildTimeline(state))
    const group = folded.find((item) => item.kind === 'group')
    expect(group?.kind === 'group' && group.group.counts).toMatchObject({ total: 5, failed: 1, open: 1 })
    const rows = listRows(folded, new Set(), new Set())
    expect(rows.filter((row) => row.kind === 'call').map((row) => row.kind === 'call' && [row.call.id, row.card])).toEqual([['call_4', true]])
  })

  it('shows but does not count a call whose failed step was retried to success', () => {
    const state = runOf(
      [progress('call_4', 'searched', false, 'no result', 50), progress('call_4', 'searched', true, 'A', 60), progress('call_4', 'sent', true, '', 70)],
      'completed'
    )
    const call = state.toolCalls[4]!
    expect(alwaysShown(call)).toBe(true)
    expect(isFailedCall(call)).toBe(false)
    expect(countCalls(state.toolCalls).failed).toBe(0)
  })

  it('a call with only good steps folds like any other', () => {
    const state = runOf([progress('call_4', 'activated', true, '', 50)], 'completed')
    expect(alwaysShown(state.toolCalls[4]!)).toBe(false)
    expect(listRows(foldTimeline(buildTimeline(state)), new Set(), new Set()).some((row) => row.kind === 'call')).toBe(false)
  })
})

describe('approvals answered only once', () => {
  it('keeps onlyOnce from approval_requested, and leaves it out when the event has none', () => {
    const request = {
      type: 'approval_requested' as const,
      ...base,
      at: 1,
      approvalId: 'ap_1',
      callId: 'call_1',
      tool: 'chat_send',
      args: { chat: 'A', text: 'hi' },
      reason: 'Sends a message',
      preview: { title: { key: 'Send' }, fields: [] },
      assessment: { verdict: 'ask' as const, findings: [], alwaysRule: null },
      bindingHash: 'h',
      expiresAt: 10_000
    }
    const once = reduceApprovals([], { ...request, onlyOnce: true })
    expect(once[0]?.onlyOnce).toBe(true)
    const plain = reduceApprovals([], { ...request, approvalId: 'ap_2' })
    expect(plain[0]).not.toHaveProperty('onlyOnce')
  })
})

describe('step labels', () => {
  const STEPS = ['activated', 'searched', 'target_verified', 'header_verified', 'draft_pasted', 'approved', 'sent', 'verified']

  it('translates every step the send-text task reports, in English and Chinese', () => {
    const en = makeTranslator('en')
    const zh = makeTranslator('zh-CN')
    for (const step of STEPS) {
      expect(stepLabel(en, step)).not.toBe(step)
      expect(stepLabel(zh, step)).not.toBe(step)
      expect(stepLabel(zh, step)).not.toBe(stepLabel(en, step))
    }
    expect(stepLabel(en, 'activated')).toBe('Opened the app')
    expect(stepLabel(zh, 'verified')).toBe('已确认发送成功')
  })

  it('shows a step it does not know as its code, whatever the code looks like', () => {
    const en = makeTranslator('en')
    expect(stepLabel(en, 'window_moved')).toBe('window_moved')
    expect(stepLabel(en, '__proto__')).toBe('__proto__')
    expect(stepLabel(en, '')).toBe('')
  })
})
