import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { SqliteConversationStore } from '../../../src/main/store'
import { PREVIEW, approvalBody, openStore, runEvents, tempDbPath } from './helpers'

/** A run left mid-flight: one call awaiting approval, one running, one finished. */
function leaveRunOpen(store: SqliteConversationStore, conversationId: string, runId: string): void {
  const event = runEvents(conversationId, runId)
  store.recordEvent(event('run_started', { prompt: 'work', model: 'm' }))
  store.recordEvent(event('tool_call_started', { callId: 'call_done', tool: 'read_file', args: { path: 'a' } }))
  store.recordEvent(
    event('tool_call_completed', {
      callId: 'call_done',
      tool: 'read_file',
      status: 'completed',
      isError: false,
      output: 'text',
      durationMs: 1
    })
  )
  store.recordEvent(event('tool_call_started', { callId: 'call_running', tool: 'shell', args: { command: 'sleep 9' } }))
  store.recordEvent(event('tool_call_started', { callId: 'call_waiting', tool: 'shell', args: { command: 'rm x' } }))
  store.recordEvent(
    event('approval_requested', {
      ...approvalBody(`appr_${runId}`, 'call_waiting', { command: 'rm x' }, Date.now() + 60_000),
      reason: 'deletes',
      preview: PREVIEW
    })
  )
}

describe('recoverInterrupted', () => {
  it('closes what a crash left open and reports the counts', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    const { id: conversationId } = store.createConversation()
    leaveRunOpen(store, conversationId, 'run_open')
    const finished = runEvents(conversationId, 'run_finished')
    store.recordEvent(finished('run_started', { prompt: 'x', model: 'm' }))
    store.recordEvent(finished('run_completed', { text: 'x', stopReason: 'final', iterations: 1, usage: {} }))

    expect(store.recoverInterrupted()).toEqual({ runs: 1, toolCalls: 2, approvals: 1 })

    const detail = store.getConversation(conversationId)
    expect(Object.fromEntries(detail?.runs.map((run) => [run.id, run.status]) ?? [])).toEqual({
      run_open: 'interrupted',
      run_finished: 'completed'
    })
    expect(Object.fromEntries(detail?.toolCalls.map((call) => [call.id, call.status]) ?? [])).toEqual({
      call_done: 'completed',
      call_running: 'interrupted',
      call_waiting: 'interrupted'
    })
    expect(store.pendingApprovals()).toEqual([])

    const db = new Database(dbPath, { readonly: true })
    try {
      expect(db.prepare('SELECT answer, resolved_by FROM approvals').get()).toEqual({
        answer: 'deny',
        resolved_by: 'cancelled'
      })
      const audit = db.prepare(`SELECT actor, data FROM audit_log WHERE kind = 'recovery'`).all()
      expect(audit).toEqual([{ actor: 'system', data: JSON.stringify({ runs: 1, toolCalls: 2, approvals: 1 }) }])
    } finally {
      db.close()
    }
  })

  it('reports zeros, and audits nothing, after a clean shutdown', () => {
    const store = openStore()
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1')
    store.recordEvent(event('run_started', { prompt: 'x', model: 'm' }))
    store.recordEvent(event('run_completed', { text: 'x', stopReason: 'final', iterations: 1, usage: {} }))

    expect(store.recoverInterrupted()).toEqual({ runs: 0, toolCalls: 0, approvals: 0 })
  })
})

describe('pendingApprovals', () => {
  it('lists only unanswered approvals of runs that are still running', () => {
    const store = openStore()
    const { id: conversationId } = store.createConversation()
    leaveRunOpen(store, conversationId, 'run_live')
    leaveRunOpen(store, conversationId, 'run_dead')
    const dead = runEvents(conversationId, 'run_dead')
    store.recordEvent(dead('run_failed', { error: { code: 'INTERNAL', message: 'boom' } }))

    expect(store.pendingApprovals().map((approval) => approval.approvalId)).toEqual(['appr_run_live'])
  })
})
