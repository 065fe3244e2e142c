import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { AgentEvent, RiskAssessment, RiskRule } from '../../../src/shared'
import { titleFromPrompt } from '../../../src/main/store'
import { ASSESSMENT, BINDING_HASH, PREVIEW, approvalBody, openStore, runEvents, tempDbPath } from './helpers'

// After createConversation's Date.now(), as in real use (updatedAt only moves forward).
const T0 = Date.now() + 60_000

function toolCallRiskColumns(dbPath: string, callId: string): unknown {
  const db = new Database(dbPath, { readonly: true })
  try {
    return db.prepare('SELECT runtime, verdict, findings FROM tool_calls WHERE id = ?').get(callId)
  } finally {
    db.close()
  }
}

function auditRows(dbPath: string): { kind: string; actor: string; run_id: string | null; data: string }[] {
  const db = new Database(dbPath, { readonly: true })
  try {
    return db.prepare('SELECT kind, actor, run_id, data FROM audit_log ORDER BY seq').all() as {
      kind: string
      actor: string
      run_id: string | null
      data: string
    }[]
  } finally {
    db.close()
  }
}

describe('recordEvent projection', () => {
  it('turns a full allowed run into the conversation the user saw', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    const { id: conversationId, createdAt } = store.createConversation()
    const user = store.addUserMessage(conversationId, 'run_1', 'List my files\nin the workspace')
    const event = runEvents(conversationId, 'run_1', T0)
    const record = (e: AgentEvent): void => store.recordEvent(e)

    record(event('run_started', { prompt: 'List my files\nin the workspace', model: 'openai:gpt-test' }))
    for (const delta of ['I will ', 'list ', 'them.']) record(event('text_delta', { messageId: 'msg_a', delta }))
    record(event('tool_call_started', { callId: 'call_1', tool: 'shell', args: { command: 'ls -la' } }))
    record(
      event('risk_assessed', { callId: 'call_1', tool: 'shell', assessment: ASSESSMENT, action: 'ask', source: 'policy' })
    )
    record(event('approval_requested', { ...approvalBody('appr_1', 'call_1', { command: 'ls -la' }, T0 + 60_000), preview: PREVIEW }))
    expect(store.getConversation(conversationId)?.toolCalls[0]?.status).toBe('awaiting_approval')
    expect(store.pendingApprovals()).toEqual([
      {
        approvalId: 'appr_1',
        conversationId,
        runId: 'run_1',
        callId: 'call_1',
        tool: 'shell',
        args: { command: 'ls -la' },
        reason: 'runs a command',
        preview: PREVIEW,
        assessment: ASSESSMENT,
        bindingHash: BINDING_HASH,
        expiresAt: T0 + 60_000
      }
    ])

    record(event('approval_resolved', { approvalId: 'appr_1', callId: 'call_1', answer: 'allow_once', by: 'user' }))
    expect(store.pendingApprovals()).toEqual([])
    expect(store.getConversation(conversationId)?.toolCalls[0]?.status).toBe('running')

    record(event('tool_output_delta', { callId: 'call_1', stream: 'stdout', chunk: 'a.txt\n' }))
    record(event('tool_output_delta', { callId: 'call_1', stream: 'stderr', chunk: 'warning\n' }))
    expect(store.getConversation(conversationId)?.toolCalls[0]?.output).toBe('a.txt\nwarning\n')

    const completedAt = T0 + 10
    record(
      event('tool_call_completed', {
        callId: 'call_1',
        tool: 'shell',
        status: 'completed',
        isError: false,
        runtime: 'native',
        output: 'a.txt\nwarning\n[exit 0]',
        durationMs: 6
      })
    )
    record(event('text_delta', { messageId: 'msg_b', delta: 'Done.' }))
    const usage = { inputTokens: 100, outputTokens: 20, totalTokens: 120 }
    record(event('run_completed', { text: 'Done.', stopReason: 'final', iterations: 2, usage }))

    const detail = store.getConversation(conversationId)
    expect(detail).toEqual({
      conversation: { id: conversationId, title: 'List my files', createdAt, updatedAt: T0 + 12, workspace: null },
      messages: [
        user,
        { id: 'msg_a', conversationId, runId: 'run_1', role: 'assistant', content: 'I will list them.', createdAt: T0 + 1 },
        { id: 'msg_b', conversationId, runId: 'run_1', role: 'assistant', content: 'Done.', createdAt: T0 + 11 }
      ],
      toolCalls: [
        {
          id: 'call_1',
          conversationId,
          runId: 'run_1',
          tool: 'shell',
          args: { command: 'ls -la' },
          status: 'completed',
          isError: false,
          output: 'a.txt\nwarning\n[exit 0]',
          startedAt: T0 + 4,
          endedAt: completedAt,
          durationMs: 6,
          runtime: 'native',
          verdict: 'ask',
          answered: { answer: 'allow_once', by: 'user', at: T0 + 7 }
        }
      ],
      runs: [
        {
          id: 'run_1',
          conversationId,
          status: 'completed',
          stopReason: 'final',
          error: null,
          startedAt: T0,
          endedAt: T0 + 12,
          usage,
          model: 'openai:gpt-test'
        }
      ]
    })

    expect(toolCallRiskColumns(dbPath, 'call_1')).toEqual({
      runtime: 'native',
      verdict: 'ask',
      findings: JSON.stringify(ASSESSMENT.findings)
    })

    const audit = auditRows(dbPath)
    expect(audit.map((row) => [row.kind, row.actor])).toEqual([
      ['risk_decision', 'policy'],
      ['approval_requested', 'policy'],
      ['approval', 'user'],
      ['tool_call', 'agent'],
      ['run', 'agent']
    ])
    expect(JSON.parse(audit[0]?.data ?? '')).toEqual({
      callId: 'call_1',
      tool: 'shell',
      args: { command: 'ls -la' },
      verdict: 'ask',
      action: 'ask',
      findings: ASSESSMENT.findings
    })
    expect(JSON.parse(audit[1]?.data ?? '')).toEqual({
      approvalId: 'appr_1',
      callId: 'call_1',
      tool: 'shell',
      args: { command: 'ls -la' },
      verdict: 'ask',
      findings: ASSESSMENT.findings,
      bindingHash: BINDING_HASH
    })
    expect(JSON.parse(audit[2]?.data ?? '')).toEqual({
      approvalId: 'appr_1',
      callId: 'call_1',
      tool: 'shell',
      args: { command: 'ls -la' },
      answer: 'allow_once',
      reason: null,
      bindingHash: BINDING_HASH
    })
    expect(JSON.parse(audit[3]?.data ?? '')).toMatchObject({
      callId: 'call_1',
      args: { command: 'ls -la' },
      status: 'completed',
      runtime: 'native'
    })
    expect(store.verifyAuditChain()).toEqual({ ok: true, rows: 5 })
  })

  it('writes the output streamed within one batch as one UPDATE per call would have, whatever else the run does between', () => {
    const store = openStore()
    const { id: conversationId } = store.createConversation()
    const a = runEvents(conversationId, 'run_a', T0)
    const b = runEvents(conversationId, 'run_b', T0)
    const output = (callId: string, chunk: string) => ({ callId, stream: 'stdout' as const, chunk })
    const completed = (callId: string, text: string) => ({ callId, tool: 'shell', status: 'completed' as const, isError: false, output: text, durationMs: 1 })
    store.recordEvent(a('run_started', { prompt: 'p', model: 'm' }))
    store.recordEvent(b('run_started', { prompt: 'q', model: 'm' }))
    // From here on one batch: nothing reads or flushes until getConversation.
    store.recordEvent(a('tool_call_started', { callId: 'call_1', tool: 'shell', args: {} }))
    store.recordEvent(a('tool_call_started', { callId: 'call_2', tool: 'shell', args: {} }))
    store.recordEvent(b('tool_call_started', { callId: 'call_1', tool: 'shell', args: {} }))
    store.recordEvent(a('tool_output_delta', output('call_1', 'one ')))
    store.recordEvent(b('tool_output_delta', output('call_1', 'other run ')))
    store.recordEvent(a('tool_output_delta', output('call_2', 'x ')))
    store.recordEvent(a('tool_progress', { callId: 'call_1', tool: 'shell', step: 'opened_page', ok: true, detail: '' }))
    store.recordEvent(a('text_delta', { messageId: 'msg_a', delta: 'thinking' }))
    store.recordEvent(a('tool_output_delta', output('call_1', 'two ')))
    store.recordEvent(a('tool_call_completed', completed('call_2', 'final 2')))
    store.recordEvent(a('tool_output_delta', output('call_2', 'late')))
    // A repeated call id restarts its row: what it streamed before is gone, what follows is kept.
    store.recordEvent(b('tool_call_started', { callId: 'call_1', tool: 'shell', args: {} }))
    store.recordEvent(b('tool_output_delta', output('call_1', 'again')))
    store.recordEvent(a('tool_output_delta', output('call_1', 'three')))
    const calls = store.getConversation(conversationId)?.toolCalls ?? []
    const byRun = Object.fromEntries(calls.map((call) => [`${call.runId}/${call.id}`, call.output]))
    expect(byRun).toEqual({
      'run_a/call_1': 'one ✓ opened page\ntwo three',
      'run_a/call_2': 'final 2late',
      'run_b/call_1': 'again'
    })
    expect(store.commits).toBe(3)
  })

  it('keeps every event, in order, for replay', () => {
    const store = openStore()
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1', T0)
    const recorded = [
      event('run_started', { prompt: 'hi', model: 'm' }),
      event('text_delta', { messageId: 'msg_a', delta: 'he' }),
      event('text_delta', { messageId: 'msg_a', delta: 'llo' }),
      event('run_completed', { text: 'hello', stopReason: 'final', iterations: 1, usage: {} })
    ]
    recorded.forEach((e) => store.recordEvent(e))

    expect(store.listEvents('run_1')).toEqual(recorded)
    expect(store.listEvents('run_unknown')).toEqual([])
  })

  it('marks a denied call denied and audits who denied it', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1', T0)

    store.recordEvent(event('run_started', { prompt: 'delete stuff', model: 'm' }))
    store.recordEvent(event('tool_call_started', { callId: 'call_1', tool: 'shell', args: { command: 'rm -rf x' } }))
    store.recordEvent(
      event('approval_requested', {
        ...approvalBody('appr_1', 'call_1', { command: 'rm -rf x' }, T0 + 1000),
        reason: 'deletes files'
      })
    )
    store.recordEvent(
      event('approval_resolved', { approvalId: 'appr_1', callId: 'call_1', answer: 'deny', by: 'timeout', reason: 'no answer' })
    )
    expect(store.getConversation(conversationId)?.toolCalls[0]?.status).toBe('denied')

    store.recordEvent(
      event('tool_call_completed', {
        callId: 'call_1',
        tool: 'shell',
        status: 'denied',
        isError: true,
        output: 'Denied: no answer',
        durationMs: 3
      })
    )
    const [call] = store.getConversation(conversationId)?.toolCalls ?? []
    expect(call).toMatchObject({ status: 'denied', isError: true, output: 'Denied: no answer' })
    const approvalAudit = auditRows(dbPath).find((row) => row.kind === 'approval')
    expect(approvalAudit).toMatchObject({ kind: 'approval', actor: 'timeout', run_id: 'run_1' })
    expect(JSON.parse(approvalAudit?.data ?? '')).toMatchObject({ answer: 'deny', reason: 'no answer', tool: 'shell' })
    expect(store.pendingApprovals()).toEqual([])
  })

  it('records a failed run with its error message', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1', T0)

    store.recordEvent(event('run_started', { prompt: 'hi', model: 'm' }))
    store.recordEvent(event('run_failed', { error: { code: 'MODEL_AUTH', message: 'The API key was rejected.' } }))

    const [run] = store.getConversation(conversationId)?.runs ?? []
    expect(run).toMatchObject({ status: 'failed', error: 'The API key was rejected.', endedAt: T0 + 1 })
    const audit = auditRows(dbPath)
    expect(audit).toHaveLength(1)
    expect(JSON.parse(audit[0]?.data ?? '')).toEqual({
      status: 'failed',
      error: { code: 'MODEL_AUTH', message: 'The API key was rejected.' }
    })
  })

  it('records a cancelled run as cancelled', () => {
    const store = openStore()
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1', T0)
    store.recordEvent(event('run_started', { prompt: 'hi', model: 'm' }))
    store.recordEvent(event('run_completed', { text: '', stopReason: 'cancelled', iterations: 1, usage: {} }))

    expect(store.getConversation(conversationId)?.runs[0]).toMatchObject({ status: 'cancelled', stopReason: 'cancelled' })
  })

  it('stores a call that completes without having started (rejected before running)', () => {
    const store = openStore()
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1', T0)
    store.recordEvent(event('run_started', { prompt: 'hi', model: 'm' }))
    store.recordEvent(
      event('tool_call_completed', {
        callId: 'call_x',
        tool: 'no_such_tool',
        status: 'error',
        isError: true,
        output: 'Unknown tool',
        durationMs: 0
      })
    )
    expect(store.getConversation(conversationId)?.toolCalls).toEqual([
      expect.objectContaining({ id: 'call_x', status: 'error', isError: true, args: null, startedAt: T0 + 1 })
    ])
  })

  it('drops events of a conversation deleted mid-run instead of throwing at the agent loop', () => {
    const store = openStore()
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1', T0)
    store.recordEvent(event('run_started', { prompt: 'hi', model: 'm' }))
    store.deleteConversation(conversationId)

    expect(() => store.recordEvent(event('text_delta', { messageId: 'msg_a', delta: 'late' }))).not.toThrow()
    expect(store.listEvents('run_1')).toEqual([])
  })

  it('reports a failed projection with the event type and run', () => {
    const store = openStore()
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1', T0)
    store.recordEvent(event('run_started', { prompt: 'hi', model: 'm' }))

    store.recordEvent(event('run_started', { prompt: 'again', model: 'm' }))
    // Both are in one batch: committing it reports the bad one, and only it is left out.
    expect(() => store.flush()).toThrow(/could not record run_started of run run_1: UNIQUE constraint failed/)
    expect(store.listEvents('run_1')).toHaveLength(1)
    // Thrown once: the next event is recorded as usual.
    store.recordEvent(event('text_delta', { messageId: 'msg_1', delta: 'ok' }))
    expect(store.listEvents('run_1')).toHaveLength(2)
  })
})

describe('conversation titles', () => {
  it('titles an untitled conversation from the first prompt only', () => {
    const store = openStore()
    const { id: conversationId } = store.createConversation()
    const first = runEvents(conversationId, 'run_1', T0)
    store.recordEvent(first('run_started', { prompt: '\n  Fix the build  \nthen test', model: 'm' }))
    const second = runEvents(conversationId, 'run_2', T0 + 100)
    store.recordEvent(second('run_started', { prompt: 'Something else', model: 'm' }))

    expect(store.getConversation(conversationId)?.conversation.title).toBe('Fix the build')
  })

  it('keeps a title the user chose', () => {
    const store = openStore()
    const { id: conversationId } = store.createConversation('My project')
    store.recordEvent(runEvents(conversationId, 'run_1')('run_started', { prompt: 'hello', model: 'm' }))
    expect(store.getConversation(conversationId)?.conversation.title).toBe('My project')
  })

  it('cuts long first lines to 60 characters', () => {
    const title = titleFromPrompt('é'.repeat(100))
    expect(title).toHaveLength(60)
    expect(title?.endsWith('…')).toBe(true)
    expect(titleFromPrompt('short')).toBe('short')
    expect(titleFromPrompt('   \n  ')).toBeNull()
  })
})

describe('risk decisions and approval answers', () => {
  it.each([
    ['allow_once', 'running'],
    ['allow_conversation', 'running'],
    ['allow_always', 'running'],
    ['deny', 'denied']
  ] as const)('round-trips the answer %s (call becomes %s) and audits it with the binding hash', (answer, status) => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1', T0)
    store.recordEvent(event('run_started', { prompt: 'go', model: 'm' }))
    store.recordEvent(event('tool_call_started', { callId: 'call_1', tool: 'shell', args: { command: 'ls -la' } }))
    store.recordEvent(event('approval_requested', approvalBody('appr_1', 'call_1', { command: 'ls -la' }, T0 + 60_000)))
    store.recordEvent(event('approval_resolved', { approvalId: 'appr_1', callId: 'call_1', answer, by: 'user' }))

    expect(store.getConversation(conversationId)?.toolCalls[0]?.status).toBe(status)
    expect(store.pendingApprovals()).toEqual([])
    const db = new Database(dbPath, { readonly: true })
    try {
      expect(db.prepare('SELECT answer, resolved_by, assessment, binding_hash FROM approvals').get()).toEqual({
        answer,
        resolved_by: 'user',
        assessment: JSON.stringify(ASSESSMENT),
        binding_hash: BINDING_HASH
      })
    } finally {
      db.close()
    }
    const approval = auditRows(dbPath).find((row) => row.kind === 'approval')
    expect(JSON.parse(approval?.data ?? '')).toMatchObject({ answer, bindingHash: BINDING_HASH })
    expect(store.verifyAuditChain()).toEqual({ ok: true, rows: 2 })
  })

  it('audits allows nobody was asked about, with who decided', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1', T0)
    const safe: RiskAssessment = { verdict: 'allow', findings: [], alwaysRule: null }
    store.recordEvent(event('run_started', { prompt: 'go', model: 'm' }))
    store.recordEvent(event('tool_call_started', { callId: 'call_1', tool: 'file_read', args: { path: 'a.txt' } }))
    store.recordEvent(
      event('risk_assessed', { callId: 'call_1', tool: 'file_read', assessment: safe, action: 'allow', source: 'policy' })
    )
    store.recordEvent(event('tool_call_started', { callId: 'call_2', tool: 'shell', args: { command: 'ls -la' } }))
    store.recordEvent(
      event('risk_assessed', {
        callId: 'call_2',
        tool: 'shell',
        assessment: ASSESSMENT,
        action: 'allow',
        source: 'conversation_grant'
      })
    )

    store.flush() // read below over another connection
    const decisions = auditRows(dbPath).filter((row) => row.kind === 'risk_decision')
    expect(decisions.map((row) => [row.actor, JSON.parse(row.data)])).toEqual([
      ['policy', { callId: 'call_1', tool: 'file_read', args: { path: 'a.txt' }, verdict: 'allow', action: 'allow', findings: [] }],
      [
        'conversation_grant',
        {
          callId: 'call_2',
          tool: 'shell',
          args: { command: 'ls -la' },
          verdict: 'ask',
          action: 'allow',
          findings: ASSESSMENT.findings
        }
      ]
    ])
    expect(toolCallRiskColumns(dbPath, 'call_2')).toEqual({
      runtime: null,
      verdict: 'ask',
      findings: JSON.stringify(ASSESSMENT.findings)
    })

    // A call id reused in the run restarts its row, risk columns included.
    store.recordEvent(event('tool_call_started', { callId: 'call_2', tool: 'shell', args: { command: 'pwd' } }))
    store.flush()
    expect(toolCallRiskColumns(dbPath, 'call_2')).toEqual({ runtime: null, verdict: null, findings: null })
  })

  it('stores an approval from an emitter that sent no assessment, and lists it with a neutral one', () => {
    const store = openStore()
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1', T0)
    store.recordEvent(event('run_started', { prompt: 'go', model: 'm' }))
    const { assessment: _assessment, bindingHash: _bindingHash, ...legacy } = approvalBody('appr_1', 'call_1', { command: 'ls' }, T0 + 1000)
    store.recordEvent(event('approval_requested', legacy as ReturnType<typeof approvalBody>))
    expect(store.pendingApprovals()).toEqual([
      expect.objectContaining({
        approvalId: 'appr_1',
        bindingHash: '',
        assessment: expect.objectContaining({ verdict: 'ask', findings: [], alwaysRule: null })
      })
    ])
  })
})

describe('approval rules', () => {
  it('saves "always allow" rules once per tool and tokens, and audits each new one', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    expect(store.listApprovalRules()).toEqual([])
    const rule: RiskRule = { tool: 'shell', match: ['git', 'status'], decision: 'allow' }
    store.saveApprovalRule(rule, 'appr_1')
    store.saveApprovalRule({ ...rule, match: ['git', 'status'] }, 'appr_2')
    store.saveApprovalRule({ tool: 'shell', match: ['git', 'log', '*'], decision: 'allow' }, 'appr_3')
    store.saveApprovalRule({ tool: 'file_write', match: ['git', 'status'], decision: 'allow' }, 'appr_4')

    expect(store.listApprovalRules()).toEqual([
      rule,
      { tool: 'shell', match: ['git', 'log', '*'], decision: 'allow' },
      { tool: 'file_write', match: ['git', 'status'], decision: 'allow' }
    ])
    const saved = auditRows(dbPath).filter((row) => row.kind === 'approval_rule_saved')
    expect(saved.map((row) => JSON.parse(row.data))).toEqual([
      { approvalId: 'appr_1', rule },
      { approvalId: 'appr_3', rule: { tool: 'shell', match: ['git', 'log', '*'], decision: 'allow' } },
      { approvalId: 'appr_4', rule: { tool: 'file_write', match: ['git', 'status'], decision: 'allow' } }
    ])
    expect(store.verifyAuditChain()).toEqual({ ok: true, rows: 3 })
  })

  it('refuses a malformed rule', () => {
    const store = openStore()
    expect(() => store.saveApprovalRule({ tool: 'shell', match: [], decision: 'allow' }, 'appr_1')).toThrow(/not a valid rule/)
    expect(store.listApprovalRules()).toEqual([])
  })
})
