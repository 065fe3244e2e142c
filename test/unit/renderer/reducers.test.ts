import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../src/shared/agent-events'
import type { ConversationDetail, PendingApproval } from '../../../src/shared/bridge'
import type { RiskAssessment } from '../../../src/shared/risk'
import {
  activeRun,
  buildTimeline,
  emptySnapshot,
  ensureRunStarted,
  mergePendingApprovals,
  reduceApprovals,
  reduceChat,
  reduceRunningConversations,
  snapshotFromDetail,
  sortConversations,
  toolVerdictKind
} from '../../../src/renderer/src/stores/reducers'

const conv = 'conv_1'
const run = 'run_1'
const base = { runId: run, conversationId: conv }
const askWrite: RiskAssessment = {
  verdict: 'ask',
  findings: [{ rule: 'tool.fs_write', message: 'file_write changes files in the workspace.', verdict: 'ask', span: null }],
  alwaysRule: { tool: 'file_write', match: ['notes', 'a.txt'], decision: 'allow' }
}
const askRm: RiskAssessment = {
  verdict: 'ask',
  findings: [{ rule: 'shell.writes', message: 'rm changes files.', verdict: 'ask', span: { arg: 'command', start: 0, end: 2 } }],
  alwaysRule: { tool: 'shell', match: ['rm', '-rf', 'x'], decision: 'allow' }
}
const preview = {
  title: { key: 'Write notes/a.txt' },
  fields: [
    { label: { key: 'Path' }, value: '/ws/notes/a.txt', code: true },
    { label: { key: 'Content' }, value: 'hello\n  world\n', code: true }
  ]
}

/** One run: text, a shell call that streams, a write that is approved, a denied call, a final answer. */
const fullRun: AgentEvent[] = [
  { type: 'run_started', ...base, at: 1000, prompt: 'Do the thing', model: 'gpt-test' },
  { type: 'text_delta', ...base, at: 1100, messageId: 'msg_a', delta: 'Let me ' },
  { type: 'text_delta', ...base, at: 1110, messageId: 'msg_a', delta: 'look.' },
  { type: 'tool_call_started', ...base, at: 1200, callId: 'call_ls', tool: 'shell', args: { command: 'ls -la' } },
  { type: 'tool_output_delta', ...base, at: 1210, callId: 'call_ls', stream: 'stdout', chunk: 'a.txt\n' },
  { type: 'tool_output_delta', ...base, at: 1220, callId: 'call_ls', stream: 'stdout', chunk: 'b.txt\n' },
  { type: 'tool_output_delta', ...base, at: 1230, callId: 'call_ls', stream: 'stderr', chunk: 'warn\n' },
  {
    type: 'tool_call_completed',
    ...base,
    at: 1300,
    callId: 'call_ls',
    tool: 'shell',
    status: 'completed',
    isError: false,
    output: 'a.txt\nb.txt\nwarn\n',
    durationMs: 100
  },
  {
    type: 'tool_call_started',
    ...base,
    at: 1400,
    callId: 'call_w',
    tool: 'file_write',
    args: { path: 'notes/a.txt', content: 'hello\n  world\n' }
  },
  {
    type: 'approval_requested',
    ...base,
    at: 1410,
    approvalId: 'appr_1',
    callId: 'call_w',
    tool: 'file_write',
    args: { path: 'notes/a.txt', content: 'hello\n  world\n' },
    reason: 'Writes a file',
    preview,
    assessment: askWrite,
    bindingHash: 'hash_w',
    expiresAt: 301_410
  },
  {
    type: 'approval_resolved',
    ...base,
    at: 1500,
    approvalId: 'appr_1',
    callId: 'call_w',
    answer: 'allow_once',
    by: 'user'
  },
  {
    type: 'tool_call_completed',
    ...base,
    at: 1550,
    callId: 'call_w',
    tool: 'file_write',
    status: 'completed',
    isError: false,
    output: 'Wrote 14 bytes',
    durationMs: 150
  },
  { type: 'tool_call_started', ...base, at: 1600, callId: 'call_rm', tool: 'shell', args: { command: 'rm -rf x' } },
  {
    type: 'approval_requested',
    ...base,
    at: 1610,
    approvalId: 'appr_2',
    callId: 'call_rm',
    tool: 'shell',
    args: { command: 'rm -rf x' },
    reason: 'Deletes files',
    preview: { title: { key: 'Run rm -rf x' }, fields: [{ label: { key: 'Command' }, value: 'rm -rf x', code: true, arg: 'command' }] },
    assessment: askRm,
    bindingHash: 'hash_rm',
    expiresAt: 301_610
  },
  {
    type: 'approval_resolved',
    ...base,
    at: 1700,
    approvalId: 'appr_2',
    callId: 'call_rm',
    answer: 'deny',
    by: 'user',
    reason: 'not that one'
  },
  {
    type: 'tool_call_completed',
    ...base,
    at: 1710,
    callId: 'call_rm',
    tool: 'shell',
    status: 'denied',
    isError: true,
    output: 'Denied by the user: not that one',
    durationMs: 110
  },
  { type: 'text_delta', ...base, at: 1800, messageId: 'msg_b', delta: 'Done: wrote **a.txt**.' },
  {
    type: 'run_completed',
    ...base,
    at: 1900,
    text: 'Let me look.Done: wrote **a.txt**.',
    stopReason: 'final',
    iterations: 4,
    usage: { inputTokens: 10, outputTokens: 20 }
  }
]

describe('reduceChat', () => {
  it('folds a full run into messages, tool calls and a completed run', () => {
    const states = [emptySnapshot(conv)]
    for (const event of fullRun) states.push(reduceChat(states[states.length - 1]!, event))
    const final = states[states.length - 1]!

    // The user's message comes from run_started.
    expect(final.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Do the thing'],
      ['assistant', 'Let me look.'],
      ['assistant', 'Done: wrote **a.txt**.']
    ])
    expect(final.runs).toHaveLength(1)
    expect(final.runs[0]).toMatchObject({ id: run, status: 'completed', stopReason: 'final', iterations: 4, endedAt: 1900 })
    expect(activeRun(final)).toBeNull()

    const [ls, write, rm] = final.toolCalls
    expect(ls).toMatchObject({ tool: 'shell', status: 'completed', output: 'a.txt\nb.txt\nwarn\n', durationMs: 100, endedAt: 1300 })
    expect(ls!.segments).toEqual([]) // the live view is replaced by the final output
    expect(write).toMatchObject({ tool: 'file_write', status: 'completed', output: 'Wrote 14 bytes' })
    expect(write!.approval).toMatchObject({ approvalId: 'appr_1', resolution: { answer: 'allow_once', by: 'user' } })
    expect(rm).toMatchObject({ status: 'denied', isError: true })
    expect(rm!.approval?.resolution).toEqual({ answer: 'deny', by: 'user', reason: 'not that one' })

    // Intermediate states: running, live output kept per stream, awaiting approval, back to running.
    const afterStart = states[4]!
    expect(afterStart.toolCalls[0]).toMatchObject({ status: 'running', output: '' })
    expect(activeRun(afterStart)?.id).toBe(run)
    const afterStderr = states[7]!
    expect(afterStderr.toolCalls[0]!.output).toBe('a.txt\nb.txt\nwarn\n')
    expect(afterStderr.toolCalls[0]!.segments).toEqual([
      { stream: 'stdout', text: 'a.txt\nb.txt\n' },
      { stream: 'stderr', text: 'warn\n' }
    ])
    expect(states[10]!.toolCalls[1]!.status).toBe('awaiting_approval')
    expect(states[11]!.toolCalls[1]!.status).toBe('running')
    expect(states[15]!.toolCalls[2]!.status).toBe('denied')

    // Time order: user, text, tools, text.
    expect(buildTimeline(final).map((item) => item.key)).toEqual([
      `m:local_user_${run}`,
      'm:msg_a',
      't:call_ls',
      't:call_w',
      't:call_rm',
      'm:msg_b'
    ])
  })

  it('never mutates the previous state', () => {
    const start = reduceChat(emptySnapshot(conv), fullRun[0]!)
    const frozen = JSON.stringify(start)
    reduceChat(start, fullRun[1]!)
    reduceChat(start, fullRun[3]!)
    expect(JSON.stringify(start)).toBe(frozen)
  })

  it('keeps output loaded from the store when live output follows', () => {
    let state = reduceChat(emptySnapshot(conv), fullRun[3]!)
    state = { ...state, toolCalls: state.toolCalls.map((c) => ({ ...c, output: 'earlier\n' })) }
    state = reduceChat(state, { ...(fullRun[6] as AgentEvent) })
    expect(state.toolCalls[0]!.output).toBe('earlier\nwarn\n')
    expect(state.toolCalls[0]!.segments).toEqual([
      { stream: 'stdout', text: 'earlier\n' },
      { stream: 'stderr', text: 'warn\n' }
    ])
  })

  it('ignores events of other conversations', () => {
    const state = emptySnapshot(conv)
    const other = reduceChat(state, { ...fullRun[0]!, conversationId: 'conv_other' } as AgentEvent)
    expect(other).toBe(state)
  })

  it('creates an assistant message for a text_delta with an unknown messageId', () => {
    const state = reduceChat(emptySnapshot(conv), {
      type: 'text_delta',
      ...base,
      at: 5,
      messageId: 'msg_new',
      delta: 'hi'
    })
    expect(state.messages).toEqual([
      { id: 'msg_new', conversationId: conv, runId: run, role: 'assistant', content: 'hi', createdAt: 5 }
    ])
  })

  it('shows run_failed inline and closes calls left open', () => {
    let state = reduceChat(emptySnapshot(conv), fullRun[0]!)
    state = reduceChat(state, fullRun[3]!)
    state = reduceChat(state, {
      type: 'run_failed',
      ...base,
      at: 2000,
      error: { code: 'MODEL_UNREACHABLE', message: 'connect ECONNREFUSED 127.0.0.1:9' }
    })
    expect(state.runs[0]).toMatchObject({
      status: 'failed',
      error: { code: 'MODEL_UNREACHABLE', message: 'connect ECONNREFUSED 127.0.0.1:9' }
    })
    expect(state.toolCalls[0]!.status).toBe('interrupted')
    const timeline = buildTimeline(state)
    expect(timeline[timeline.length - 1]).toMatchObject({ kind: 'run_end', run: { id: run } })
    expect(activeRun(state)).toBeNull()
  })

  it('adds the final text when nothing was streamed, and marks a cancelled run', () => {
    let state = reduceChat(emptySnapshot(conv), fullRun[0]!)
    state = reduceChat(state, { ...(fullRun[fullRun.length - 1] as AgentEvent), text: 'Answer' } as AgentEvent)
    expect(state.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(['Answer'])

    let cancelled = reduceChat(emptySnapshot(conv), fullRun[0]!)
    cancelled = reduceChat(cancelled, {
      type: 'run_completed',
      ...base,
      at: 3000,
      text: '',
      stopReason: 'cancelled',
      iterations: 1,
      usage: {}
    })
    expect(cancelled.runs[0]!.status).toBe('cancelled')
    expect(cancelled.messages.filter((m) => m.role === 'assistant')).toEqual([])
  })

  it('starts from a conversations.get snapshot and does not duplicate the user message', () => {
    const detail: ConversationDetail = {
      conversation: { id: conv, title: 'T', createdAt: 1, updatedAt: 2, workspace: null },
      messages: [{ id: 'msg_u', conversationId: conv, runId: run, role: 'user', content: 'Do the thing', createdAt: 999 }],
      toolCalls: [],
      runs: [
        {
          id: run,
          conversationId: conv,
          status: 'running',
          stopReason: null,
          error: null,
          startedAt: 999,
          endedAt: null,
          usage: null
        }
      ]
    }
    let state = snapshotFromDetail(detail)
    state = reduceChat(state, fullRun[0]!)
    state = ensureRunStarted(state, { runId: run, conversationId: conv, prompt: 'Do the thing', at: 1001 })
    expect(state.messages).toHaveLength(1)
    expect(state.runs).toHaveLength(1)
    expect(activeRun(state)?.id).toBe(run)
  })
})

describe('risk verdicts and runtimes', () => {
  const allowLs: RiskAssessment = {
    verdict: 'allow',
    findings: [{ rule: 'shell.read-only', message: 'ls only reads.', verdict: 'allow', span: { arg: 'command', start: 0, end: 2 } }],
    alwaysRule: null
  }
  const denyRoot: RiskAssessment = {
    verdict: 'deny',
    findings: [
      { rule: 'shell.critical.rm-root', message: 'Deletes the whole filesystem.', verdict: 'deny', span: { arg: 'command', start: 0, end: 8 } }
    ],
    alwaysRule: null,
    alwaysBlockedReason: 'Denied calls cannot be allowed.'
  }
  const started = (callId: string, command: string, at: number): AgentEvent => ({
    type: 'tool_call_started',
    ...base,
    at,
    callId,
    tool: 'shell',
    args: { command }
  })
  const assessed = (
    callId: string,
    assessment: RiskAssessment,
    at: number,
    extra: Partial<{ action: 'allow' | 'ask' | 'deny'; source: 'policy' | 'conversation_grant' }> = {}
  ): AgentEvent => ({
    type: 'risk_assessed',
    ...base,
    at,
    callId,
    tool: 'shell',
    assessment,
    action: extra.action ?? assessment.verdict,
    source: extra.source ?? 'policy'
  })
  const completed = (callId: string, status: 'completed' | 'denied', at: number, runtime?: string): AgentEvent => ({
    type: 'tool_call_completed',
    ...base,
    at,
    callId,
    tool: 'shell',
    status,
    isError: status !== 'completed',
    ...(runtime ? { runtime } : {}),
    output: status === 'completed' ? 'ok\n' : 'Not allowed.',
    durationMs: 5
  })
  const fold = (events: AgentEvent[]) => events.reduce(reduceChat, reduceChat(emptySnapshot(conv), fullRun[0]!))

  it('records risk_assessed on the call and the runtime that ran it', () => {
    const afterAssess = fold([started('call_ls', 'ls', 1100), assessed('call_ls', allowLs, 1101)])
    expect(afterAssess.toolCalls[0]).toMatchObject({
      verdict: 'allow',
      runtime: null,
      status: 'running',
      risk: { assessment: allowLs, action: 'allow', source: 'policy' }
    })
    expect(toolVerdictKind(afterAssess.toolCalls[0]!)).toBe('safe')

    const done = reduceChat(afterAssess, completed('call_ls', 'completed', 1200, 'bwrap'))
    expect(done.toolCalls[0]).toMatchObject({ status: 'completed', runtime: 'bwrap', verdict: 'allow' })
    // The assessment survives completion.
    expect(done.toolCalls[0]!.risk?.assessment).toEqual(allowLs)
  })

  it('keeps a runtime it already knows when the completion carries none', () => {
    const state = fold([started('call_ls', 'ls', 1100), completed('call_ls', 'completed', 1200)])
    expect(state.toolCalls[0]!.runtime).toBeNull()
    const withRuntime = { ...state, toolCalls: [{ ...state.toolCalls[0]!, runtime: 'docker' }] }
    expect(reduceChat(withRuntime, completed('call_ls', 'completed', 1300)).toolCalls[0]!.runtime).toBe('docker')
  })

  it('creates the call for a risk_assessed that arrives first, and ignores other conversations', () => {
    const state = reduceChat(emptySnapshot(conv), assessed('call_x', askRm, 50))
    expect(state.toolCalls).toHaveLength(1)
    expect(state.toolCalls[0]).toMatchObject({ id: 'call_x', tool: 'shell', verdict: 'ask', startedAt: 50 })
    const other = emptySnapshot(conv)
    expect(reduceChat(other, { ...assessed('call_x', askRm, 50), conversationId: 'conv_other' } as AgentEvent)).toBe(other)
  })

  it('derives the badge: asked while waiting and when denied, approved once allowed, blocked by policy', () => {
    const request: AgentEvent = fullRun[13]!
    const answer = (answer: 'allow_once' | 'allow_conversation' | 'allow_always' | 'deny'): AgentEvent => ({
      type: 'approval_resolved',
      ...base,
      at: 1700,
      approvalId: 'appr_2',
      callId: 'call_rm',
      answer,
      by: 'user'
    })
    const asking = fold([fullRun[12]!, assessed('call_rm', askRm, 1605), request])
    expect(asking.toolCalls[0]).toMatchObject({ status: 'awaiting_approval', verdict: 'ask' })
    expect(toolVerdictKind(asking.toolCalls[0]!)).toBe('asked')
    // Between the verdict and the question the call is still "running": it must not look approved.
    expect(toolVerdictKind(fold([fullRun[12]!, assessed('call_rm', askRm, 1605)]).toolCalls[0]!)).toBe('asked')

    const denied = reduceChat(reduceChat(asking, answer('deny')), completed('call_rm', 'denied', 1710))
    expect(denied.toolCalls[0]!.status).toBe('denied')
    expect(toolVerdictKind(denied.toolCalls[0]!)).toBe('asked')

    for (const allow of ['allow_once', 'allow_conversation', 'allow_always'] as const) {
      const allowed = reduceChat(asking, answer(allow))
      expect(allowed.toolCalls[0]!.status).toBe('running')
      expect(allowed.toolCalls[0]!.approval?.resolution).toEqual({ answer: allow, by: 'user', reason: undefined })
      expect(toolVerdictKind(allowed.toolCalls[0]!)).toBe('approved')
    }

    const blocked = fold([started('call_root', 'rm -rf /', 1800), assessed('call_root', denyRoot, 1801), completed('call_root', 'denied', 1802)])
    expect(blocked.toolCalls[0]).toMatchObject({ verdict: 'deny', status: 'denied', runtime: null })
    expect(toolVerdictKind(blocked.toolCalls[0]!)).toBe('blocked')
  })

  it('shows a conversation grant as such: the engine asked, the grant let it run', () => {
    const state = fold([
      started('call_t', 'touch marker.txt', 1100),
      assessed('call_t', askRm, 1101, { action: 'allow', source: 'conversation_grant' }),
      completed('call_t', 'completed', 1150, 'native')
    ])
    expect(state.toolCalls[0]).toMatchObject({ verdict: 'ask', runtime: 'native', approval: null })
    expect(state.toolCalls[0]!.risk).toMatchObject({ action: 'allow', source: 'conversation_grant' })
    expect(toolVerdictKind(state.toolCalls[0]!)).toBe('granted')
  })

  it('reads verdict and runtime from a conversations.get snapshot, old records included', () => {
    const record = {
      conversationId: conv,
      runId: run,
      tool: 'shell',
      args: { command: 'x' },
      isError: false,
      output: '',
      startedAt: 1,
      endedAt: 2,
      durationMs: 1
    }
    const detail: ConversationDetail = {
      conversation: { id: conv, title: 'T', createdAt: 1, updatedAt: 2, workspace: null },
      messages: [],
      toolCalls: [
        { ...record, id: 'c_safe', status: 'completed', verdict: 'allow', runtime: 'bwrap' },
        { ...record, id: 'c_ran', status: 'completed', verdict: 'ask', runtime: 'native' },
        { ...record, id: 'c_denied', status: 'denied', verdict: 'ask', runtime: null },
        { ...record, id: 'c_blocked', status: 'denied', verdict: 'deny' },
        { ...record, id: 'c_waiting', status: 'awaiting_approval', verdict: 'ask' },
        { ...record, id: 'c_old', status: 'completed' } // stored before verdicts existed
      ],
      runs: []
    }
    const state = snapshotFromDetail(detail)
    expect(state.toolCalls.map((c) => [c.id, c.verdict, c.runtime, toolVerdictKind(c)])).toEqual([
      ['c_safe', 'allow', 'bwrap', 'safe'],
      ['c_ran', 'ask', 'native', 'approved'],
      ['c_denied', 'ask', null, 'asked'],
      ['c_blocked', 'deny', null, 'blocked'],
      ['c_waiting', 'ask', null, 'asked'],
      ['c_old', null, null, null]
    ])
    expect(state.toolCalls.every((c) => c.risk === null && c.approval === null)).toBe(true)
  })
})

describe('tool summaries and attachments', () => {
  const shot = { id: 'att_1', kind: 'image' as const, mediaType: 'image/png', name: 'screen.png', width: 64, height: 48, bytes: 1234 }
  const log = { id: 'att_2', kind: 'file' as const, mediaType: 'text/plain', name: 'capture.log', bytes: 99 }
  const started: AgentEvent = {
    type: 'tool_call_started',
    ...base,
    at: 1100,
    callId: 'call_s',
    tool: 'screenshot',
    args: { display: 1, format: 'png' },
    summary: 'Screenshot of display 1'
  }
  const completed: AgentEvent = {
    type: 'tool_call_completed',
    ...base,
    at: 1200,
    callId: 'call_s',
    tool: 'screenshot',
    status: 'completed',
    isError: false,
    output: 'Captured 64×48',
    attachments: [shot, log],
    durationMs: 100
  }
  const start = () => reduceChat(emptySnapshot(conv), fullRun[0]!)

  it('keeps the tool’s own summary from tool_call_started, and the attachments from tool_call_completed', () => {
    const running = reduceChat(start(), started)
    expect(running.toolCalls[0]).toMatchObject({ id: 'call_s', status: 'running', summary: 'Screenshot of display 1' })
    expect(running.toolCalls[0]!.attachments).toBeUndefined()
    const done = reduceChat(running, completed)
    expect(done.toolCalls[0]).toMatchObject({ status: 'completed', summary: 'Screenshot of display 1', output: 'Captured 64×48' })
    expect(done.toolCalls[0]!.attachments).toEqual([shot, log])
    // Live output in between does not lose either.
    const streamed = reduceChat(running, { type: 'tool_output_delta', ...base, at: 1150, callId: 'call_s', stream: 'stdout', chunk: 'x' })
    expect(reduceChat(streamed, completed).toolCalls[0]).toMatchObject({ summary: 'Screenshot of display 1', attachments: [shot, log] })
  })

  it('leaves summary and attachments absent when the events carry none (invalid calls, older mains)', () => {
    const { summary: _summary, ...bare } = started as Extract<AgentEvent, { type: 'tool_call_started' }>
    const { attachments: _attachments, ...plain } = completed as Extract<AgentEvent, { type: 'tool_call_completed' }>
    const state = reduceChat(reduceChat(start(), bare), plain)
    expect('summary' in state.toolCalls[0]!).toBe(false)
    expect('attachments' in state.toolCalls[0]!).toBe(false)
    // A completion without attachments keeps the summary it had.
    const kept = reduceChat(reduceChat(start(), started), plain).toolCalls[0]!
    expect(kept.summary).toBe('Screenshot of display 1')
    expect(kept.attachments).toBeUndefined()
    // A completion that arrives first creates the call with its attachments.
    const first = reduceChat(start(), completed)
    expect(first.toolCalls[0]).toMatchObject({ id: 'call_s', tool: 'screenshot', attachments: [shot, log] })
    expect(first.toolCalls[0]!.summary).toBeUndefined()
  })

  it('reads summary and attachments from a conversations.get snapshot, and live events keep them', () => {
    const detail: ConversationDetail = {
      conversation: { id: conv, title: 'T', createdAt: 1, updatedAt: 2, workspace: null },
      messages: [],
      toolCalls: [
        {
          id: 'c_shot',
          conversationId: conv,
          runId: run,
          tool: 'screenshot',
          args: { display: 1 },
          status: 'completed',
          isError: false,
          output: 'Captured',
          startedAt: 1,
          endedAt: 2,
          durationMs: 1,
          summary: 'Screenshot of display 1',
          attachments: [shot]
        },
        {
          id: 'c_old',
          conversationId: conv,
          runId: run,
          tool: 'shell',
          args: { command: 'ls' },
          status: 'completed',
          isError: false,
          output: '',
          startedAt: 3,
          endedAt: 4,
          durationMs: 1
        }
      ],
      runs: []
    }
    const state = snapshotFromDetail(detail)
    expect(state.toolCalls[0]).toMatchObject({ summary: 'Screenshot of display 1', attachments: [shot] })
    expect(state.toolCalls[1]!.summary).toBeUndefined()
    expect(state.toolCalls[1]!.attachments).toBeUndefined()
    // A late risk event for the loaded call changes neither.
    const next = reduceChat(state, {
      type: 'risk_assessed',
      ...base,
      at: 5,
      callId: 'c_shot',
      tool: 'screenshot',
      assessment: { verdict: 'allow', findings: [], alwaysRule: null },
      action: 'allow',
      source: 'policy'
    })
    expect(next.toolCalls[0]).toMatchObject({ summary: 'Screenshot of display 1', attachments: [shot] })
  })
})

describe('reduceApprovals', () => {
  it('queues requests oldest first and drops them when resolved or the run ends', () => {
    let list: PendingApproval[] = []
    for (const event of fullRun.slice(0, 10)) list = reduceApprovals(list, event)
    expect(list.map((a) => a.approvalId)).toEqual(['appr_1'])
    expect(list[0]).toMatchObject({ callId: 'call_w', tool: 'file_write', preview, expiresAt: 301_410 })
    // The modal needs the findings to show and the hash to answer with.
    expect(list[0]!.assessment).toEqual(askWrite)
    expect(list[0]!.bindingHash).toBe('hash_w')
    list = reduceApprovals(list, fullRun[9]!) // duplicate request
    expect(list).toHaveLength(1)
    list = reduceApprovals(list, fullRun[13]!)
    expect(list.map((a) => a.approvalId)).toEqual(['appr_1', 'appr_2'])
    list = reduceApprovals(list, fullRun[10]!)
    expect(list.map((a) => a.approvalId)).toEqual(['appr_2'])
    list = reduceApprovals(list, fullRun[fullRun.length - 1]!)
    expect(list).toEqual([])
  })

  it('merges a fresh approvals.pending answer with what events already delivered', () => {
    const a = reduceApprovals([], fullRun[9]!)
    const b = reduceApprovals([], fullRun[13]!)
    expect(mergePendingApprovals(b, a, 0).map((x) => x.approvalId)).toEqual(['appr_1', 'appr_2'])
    expect(mergePendingApprovals(b, a, 999_999).map((x) => x.approvalId)).toEqual(['appr_1'])
  })
})

describe('conversation list helpers', () => {
  it('tracks which conversations are running', () => {
    let running: ReadonlySet<string> = new Set()
    running = reduceRunningConversations(running, fullRun[0]!)
    expect([...running]).toEqual([conv])
    running = reduceRunningConversations(running, fullRun[fullRun.length - 1]!)
    expect([...running]).toEqual([])
  })

  it('sorts most recently updated first', () => {
    const list = sortConversations([
      { id: 'a', title: 'a', createdAt: 1, updatedAt: 5, workspace: null },
      { id: 'b', title: 'b', createdAt: 2, updatedAt: 9, workspace: null }
    ])
    expect(list.map((c) => c.id)).toEqual(['b', 'a'])
  })
})
