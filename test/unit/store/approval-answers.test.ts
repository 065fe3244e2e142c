/**
 * Issue 22, item 3: how an approval was answered — the answer, who gave it, at which front door,
 * when and the reason — is read back with the conversation (a reload, a second tab, a restart), and
 * a crash's recovery answer too. Before, a snapshot kept only the call's status.
 */
import { describe, expect, it } from 'vitest'
import { SqliteConversationStore } from '../../../src/main/store'
import { approvalBody, openStore, runEvents, tempDbPath } from './helpers'

const T0 = 1_760_000_000_000

describe('approval answers in the snapshot', () => {
  it('keeps the answer, who, where, when and the reason, also after reopening the file', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1', T0)
    store.recordEvent(event('run_started', { prompt: 'clean up', model: 'm' }))
    store.recordEvent(event('tool_call_started', { callId: 'call_1', tool: 'shell', args: { command: 'rm -rf build' } }))
    store.recordEvent(event('approval_requested', approvalBody('appr_1', 'call_1', { command: 'rm -rf build' }, T0 + 60_000)))
    const denied = event('approval_resolved', { approvalId: 'appr_1', callId: 'call_1', answer: 'deny', by: 'user', reason: 'keep the build', via: 'browser' })
    store.recordEvent(denied)
    store.recordEvent(event('tool_call_started', { callId: 'call_2', tool: 'shell', args: { command: 'ls' } }))
    store.recordEvent(event('approval_requested', approvalBody('appr_2', 'call_2', { command: 'ls' }, T0 + 60_000)))
    const allowed = event('approval_resolved', { approvalId: 'appr_2', callId: 'call_2', answer: 'allow_conversation', by: 'user', via: 'window' })
    store.recordEvent(allowed)
    store.recordEvent(event('tool_call_started', { callId: 'call_3', tool: 'shell', args: { command: 'pwd' } }))

    const expected = {
      call_1: { answer: 'deny', by: 'user', reason: 'keep the build', at: denied.at, via: 'browser' },
      call_2: { answer: 'allow_conversation', by: 'user', at: allowed.at, via: 'window' }
    }
    const answers = (s: SqliteConversationStore) =>
      Object.fromEntries(s.getConversation(conversationId)!.toolCalls.map((call) => [call.id, call.answered]))
    expect(answers(store)).toEqual({ ...expected, call_3: undefined })

    store.close()
    const reopened = SqliteConversationStore.open(dbPath)
    try {
      expect(answers(reopened)).toEqual({ ...expected, call_3: undefined })
    } finally {
      reopened.close()
    }
  })

  it('an answer without a front door (a timeout, records from before `via`) has none', () => {
    const store = openStore()
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1', T0)
    store.recordEvent(event('run_started', { prompt: 'x', model: 'm' }))
    store.recordEvent(event('tool_call_started', { callId: 'call_1', tool: 'shell', args: { command: 'rm x' } }))
    store.recordEvent(event('approval_requested', approvalBody('appr_1', 'call_1', { command: 'rm x' }, T0 + 1000)))
    const timeout = event('approval_resolved', { approvalId: 'appr_1', callId: 'call_1', answer: 'deny', by: 'timeout', reason: 'no answer' })
    store.recordEvent(timeout)
    expect(store.getConversation(conversationId)!.toolCalls[0]!.answered).toEqual({ answer: 'deny', by: 'timeout', reason: 'no answer', at: timeout.at })
  })
})
