import { describe, expect, it } from 'vitest'
import { openStore, runEvents } from './helpers'

/**
 * A call's result line and a failed run's message code reach `conversations.get` from the event
 * log, without a column (docs/architecture.md, "Texts from main").
 */
describe('texts the snapshot reads from the event log', () => {
  it("gives each call the display its completion carried, the last one for a call id a run reused", () => {
    const store = openStore()
    const conversationId = store.createConversation().id
    const event = runEvents(conversationId, 'run_1')
    store.recordEvent(event('run_started', { prompt: 'p', model: 'm' }))
    const wrote = { key: 'result.wrote', params: { bytes: 12, path: 'a.txt' } }
    store.recordEvent(event('tool_call_started', { callId: 'c1', tool: 'file_write', args: { path: 'a.txt' } }))
    store.recordEvent(event('tool_call_completed', { callId: 'c1', tool: 'file_write', status: 'completed', isError: false, output: 'Wrote 12 bytes to a.txt.', display: wrote, durationMs: 1 }))
    // A reused id whose second completion has no line: the first one's must not stick to it.
    store.recordEvent(event('tool_call_started', { callId: 'c2', tool: 'shell', args: { command: 'ls' } }))
    store.recordEvent(event('tool_call_completed', { callId: 'c2', tool: 'shell', status: 'denied', isError: true, output: 'no', display: { key: 'toolRun.deniedByUser' }, durationMs: 1 }))
    store.recordEvent(event('tool_call_started', { callId: 'c2', tool: 'shell', args: { command: 'ls' } }))
    store.recordEvent(event('tool_call_completed', { callId: 'c2', tool: 'shell', status: 'completed', isError: false, output: 'a.txt', durationMs: 1 }))
    store.recordEvent(event('tool_call_started', { callId: 'c3', tool: 'mcp_tool', args: {} }))
    store.recordEvent(event('tool_call_completed', { callId: 'c3', tool: 'mcp_tool', status: 'completed', isError: false, output: 'ok', durationMs: 1 }))

    const calls = store.getConversation(conversationId)!.toolCalls
    expect(calls.find((c) => c.id === 'c1')).toMatchObject({ output: 'Wrote 12 bytes to a.txt.', display: wrote })
    expect(calls.find((c) => c.id === 'c2')!.display).toBeUndefined()
    expect(calls.find((c) => c.id === 'c3')!.display).toBeUndefined()
  })

  it('gives each call the summary code its start carried, the English summary in the column (issue 22, item 5)', () => {
    const store = openStore()
    const conversationId = store.createConversation().id
    const event = runEvents(conversationId, 'run_1')
    store.recordEvent(event('run_started', { prompt: 'p', model: 'm' }))
    const screen = { key: 'summary.screen' }
    store.recordEvent(event('tool_call_started', { callId: 'c1', tool: 'screenshot', args: {}, summary: 'the whole screen', summaryText: screen }))
    store.recordEvent(event('tool_call_completed', { callId: 'c1', tool: 'screenshot', status: 'completed', isError: false, output: '', durationMs: 1 }))
    store.recordEvent(event('tool_call_started', { callId: 'c2', tool: 'shell', args: { command: 'ls' }, summary: 'ls' }))
    store.recordEvent(event('tool_call_completed', { callId: 'c2', tool: 'shell', status: 'completed', isError: false, output: 'a.txt', durationMs: 1 }))

    const calls = store.getConversation(conversationId)!.toolCalls
    expect(calls.find((c) => c.id === 'c1')).toMatchObject({ summary: 'the whole screen', summaryText: screen })
    expect(calls.find((c) => c.id === 'c2')).toMatchObject({ summary: 'ls' })
    expect(calls.find((c) => c.id === 'c2')!.summaryText).toBeUndefined()
  })

  it("keeps a failed run's whole error: its code and message code, not only the message", () => {
    const store = openStore()
    const conversationId = store.createConversation().id
    const event = runEvents(conversationId, 'run_1')
    store.recordEvent(event('run_started', { prompt: 'p', model: 'm' }))
    const error = {
      code: 'MODEL_UNREACHABLE',
      message: 'Cannot reach the model server at http://127.0.0.1:1/v1 (ECONNREFUSED).',
      key: 'errors.model.unreachable',
      params: { url: 'http://127.0.0.1:1/v1', reason: 'ECONNREFUSED' }
    }
    store.recordEvent(event('run_failed', { error }))
    const done = runEvents(conversationId, 'run_2')
    store.recordEvent(done('run_started', { prompt: 'q', model: 'm' }))
    store.recordEvent(done('run_completed', { text: 'ok', stopReason: 'final', iterations: 1, usage: {} }))

    const runs = store.getConversation(conversationId)!.runs
    expect(runs.find((r) => r.id === 'run_1')).toMatchObject({ status: 'failed', error: error.message, failure: error })
    expect(runs.find((r) => r.id === 'run_2')!.failure).toBeUndefined()
  })

  it("gives each step the detail code its tool_progress carried (a send-text step's reason in the UI's language)", () => {
    const store = openStore()
    const conversationId = store.createConversation().id
    const event = runEvents(conversationId, 'run_1')
    store.recordEvent(event('run_started', { prompt: 'p', model: 'm' }))
    store.recordEvent(event('tool_call_started', { callId: 'c1', tool: 'desktop_send_text', args: {} }))
    const why = { key: 'reason.noResult', params: { name: '张伟' } }
    store.recordEvent(event('tool_progress', { callId: 'c1', tool: 'desktop_send_text', step: 'searched', ok: true, detail: '(no results)', detailText: { key: 'step.noResults' } }))
    store.recordEvent(event('tool_progress', { callId: 'c1', tool: 'desktop_send_text', step: 'target_verified', ok: false, detail: 'no search result reads exactly "张伟"', detailText: why }))
    store.recordEvent(event('tool_progress', { callId: 'c1', tool: 'desktop_send_text', step: 'activated', ok: true, detail: '"WeChat"' }))
    store.recordEvent(event('tool_call_completed', { callId: 'c1', tool: 'desktop_send_text', status: 'error', isError: true, output: 'not sent', durationMs: 1 }))
    const steps = store.getConversation(conversationId)!.toolCalls[0]!.steps!
    expect(steps.map((s) => s.detailText)).toEqual([{ key: 'step.noResults' }, why, undefined])
    expect(steps[1]!.detail).toBe('no search result reads exactly "张伟"')
  })
})
