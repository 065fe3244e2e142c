/** Sub-agents (docs/tools.md, "Sub-agents"): the delegate tool through the scripted model and a real app. */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AgentEvent, AgentEventOf } from '../../src/shared'
import type { RecordedRequest, ScriptedTurn } from '../fixtures/scripted-types'
import { runPrompt, scriptedApps } from '../helpers/temp-app'

const apps = scriptedApps()
type Nested = AgentEventOf<'subagent_event'>

/** Answers a parent's and its children's requests by who asks: requests of parallel children arrive in any order. */
function router(parent: (request: RecordedRequest, toolResults: number) => ScriptedTurn, child: (task: string, toolResults: number) => ScriptedTurn, count = 12) {
  const route = (request: RecordedRequest): ScriptedTurn => {
    const messages = request.body.messages as Array<{ role: string; content: unknown }>
    const system = String(messages.find((m) => m.role === 'system')?.content ?? '')
    const toolResults = messages.filter((m) => m.role === 'tool').length
    if (!system.includes('You are a sub-agent')) return parent(request, toolResults)
    const task = String(messages.find((m) => m.role === 'user')?.content ?? '')
    return child(task, toolResults)
  }
  return Array.from({ length: count }, () => route)
}

const nestedOf = (events: AgentEvent[]): Nested[] => events.filter((e): e is Nested => e.type === 'subagent_event')

describe('delegate (scripted model)', () => {
  it('runs two sub-tasks in parallel; their events nest under the calls, in order, in the store', async () => {
    const temp = await apps.setup(
      router(
        (_request, results) =>
          results === 0
            ? { toolCalls: [{ name: 'delegate', args: { task: 'read a.txt', tools: ['file_read'] } }, { name: 'delegate', args: { task: 'say hello', tools: [] } }] }
            : { text: 'Both done.' },
        (task, results) => (task === 'read a.txt' ? (results === 0 ? { toolCalls: [{ name: 'file_read', args: { path: 'a.txt' } }], delayMs: 200 } : { text: 'a.txt says alpha' }) : { text: 'hello', delayMs: 300 })
      )
    )
    writeFileSync(join(temp.workspace, 'a.txt'), 'alpha\n')
    const { runId, conversationId, outcome } = await runPrompt(temp, 'do two things')
    expect(outcome).toMatchObject({ status: 'completed', text: 'Both done.' })

    const stored = temp.app.store.listEvents(runId)
    const nested = nestedOf(stored)
    const children = [...new Set(nested.map((e) => e.childRunId))]
    expect(children).toHaveLength(2)
    for (const child of children) {
      const inner = nested.filter((e) => e.childRunId === child).map((e) => e.event.type)
      expect(inner[0]).toBe('run_started')
      expect(inner.at(-1)).toBe('run_completed')
    }
    // Parallel: both children started before either finished.
    const firstEnd = nested.findIndex((e) => e.event.type === 'run_completed')
    expect(nested.filter((e, i) => e.event.type === 'run_started' && i < firstEnd)).toHaveLength(2)
    // Each nests under its own delegate call; the reader's steps are there, in order.
    const calls = stored.filter((e): e is AgentEventOf<'tool_call_completed'> => e.type === 'tool_call_completed' && e.tool === 'delegate')
    const reader = nested.find((e) => e.task === 'read a.txt')!
    expect(calls.map((c) => c.callId)).toContain(reader.callId)
    expect(nested.filter((e) => e.childRunId === reader.childRunId).map((e) => e.event.type)).toEqual(
      expect.arrayContaining(['run_started', 'tool_call_started', 'risk_assessed', 'tool_call_completed', 'run_completed'])
    )
    expect(calls.find((c) => c.callId === reader.callId)!.output).toContain('a.txt says alpha')
    // A reload gets each delegate call's children (steps and ends) with the call, as the live view had them.
    const reloaded = temp.app.store.getConversation(conversationId)!.toolCalls.find((c) => c.id === reader.callId)!
    const reloadedTypes = (reloaded.subagentEvents ?? []).map((e) => e.event.type)
    expect(reloadedTypes[0]).toBe('run_started')
    expect(reloadedTypes).toEqual(expect.arrayContaining(['tool_call_started', 'tool_call_completed', 'run_completed']))
    expect(reloadedTypes).not.toContain('text_delta')
    expect(reloaded.subagentEvents!.find((e) => e.event.type === 'tool_call_started')!.event).toMatchObject({ tool: 'file_read' })
    expect(reloaded.subagentEvents!.every((e) => e.task === 'read a.txt' && e.childRunId === reader.childRunId)).toBe(true)
    // The parent got both answers; the chat holds only the parent's question and answer.
    const messages = temp.app.store.getConversation(conversationId)!.messages.map((m) => m.content)
    expect(messages).toEqual(['do two things', 'Both done.'])
    const audit = temp.app.store.recentAudit(100).filter((row) => row.kind === 'tool_call' && (row.data as { parentCallId?: string }).parentCallId === reader.callId)
    expect(audit).toEqual([expect.objectContaining({ runId, data: expect.objectContaining({ tool: 'file_read', childRunId: reader.childRunId, status: 'completed' }) })])
  })

  it("a child's approval reaches the user labelled with its task", async () => {
    const temp = await apps.setup(
      router(
        (_r, results) => (results === 0 ? { toolCalls: [{ name: 'delegate', args: { task: 'write the notes', tools: ['file_write'] } }] } : { text: 'Written.' }),
        (_task, results) => (results === 0 ? { toolCalls: [{ name: 'file_write', args: { path: 'notes.txt', content: 'n1' } }] } : { text: 'notes written' })
      )
    )
    temp.setApprover('allow_once')
    const { events, outcome } = await runPrompt(temp, 'delegate the notes')
    expect(outcome.status).toBe('completed')
    const asked = temp.events.find((e): e is AgentEventOf<'approval_requested'> => e.type === 'approval_requested')
    expect(asked).toMatchObject({ tool: 'file_write', delegatedTask: 'write the notes', conversationId: events[0]!.conversationId })
    expect(nestedOf(events).some((e) => e.childRunId === asked!.runId)).toBe(true)
    expect(readFileSync(join(temp.workspace, 'notes.txt'), 'utf8')).toBe('n1')
  })

  it('cancelling the parent stops both children', async () => {
    const temp = await apps.setup(
      router(
        () => ({ toolCalls: [{ name: 'delegate', args: { task: 'one', tools: [] } }, { name: 'delegate', args: { task: 'two', tools: [] } }] }),
        () => ({ hang: true })
      )
    )
    const conversationId = temp.app.store.createConversation().id
    const { runId } = temp.app.agent.send(conversationId, 'start two slow things')
    for (let i = 0; i < 200 && nestedOf(temp.events).filter((e) => e.event.type === 'run_started').length < 2; i++) await new Promise((r) => setTimeout(r, 25))
    expect(nestedOf(temp.events).filter((e) => e.event.type === 'run_started')).toHaveLength(2)
    temp.app.agent.cancel(runId)
    const outcome = await temp.app.agent.wait(runId)
    expect(outcome).toMatchObject({ status: 'completed', stopReason: 'cancelled' })
    const ends = nestedOf(temp.app.store.listEvents(runId)).filter((e) => e.event.type === 'run_completed' || e.event.type === 'run_failed')
    expect(ends).toHaveLength(2)
    expect(ends.every((e) => e.event.type === 'run_completed' && (e.event as unknown as { stopReason: string }).stopReason === 'cancelled')).toBe(true)
  })

  it('refuses delegate itself and unknown tools; honours the concurrency limit', async () => {
    const temp = await apps.setup(
      router(
        (_r, results) =>
          results === 0
            ? {
                toolCalls: [
                  { name: 'delegate', args: { task: 'recurse', tools: ['delegate'] } },
                  { name: 'delegate', args: { task: 'unknown', tools: ['no_such_tool'] } },
                  { name: 'delegate', args: { task: 'first', tools: [] } },
                  { name: 'delegate', args: { task: 'second', tools: [] } }
                ]
              }
            : { text: 'ok' },
        (task) => ({ text: `${task} done`, delayMs: 150 })
      ),
      { delegateConcurrency: 1 }
    )
    const { events } = await runPrompt(temp, 'try')
    const results = events.filter((e): e is AgentEventOf<'tool_call_completed'> => e.type === 'tool_call_completed')
    expect(results.filter((r) => r.isError).map((r) => r.output)).toEqual([
      expect.stringContaining('cannot delegate'),
      expect.stringContaining('No such tool: no_such_tool')
    ])
    // One at a time: the second child starts after the first ended.
    const order = nestedOf(events).filter((e) => e.event.type === 'run_started' || e.event.type === 'run_completed').map((e) => `${e.task}:${e.event.type}`)
    expect(order).toEqual(['first:run_started', 'first:run_completed', 'second:run_started', 'second:run_completed'])
  })

  it("a child's write empties the parent's read cache: the parent's next read of the file sees what the child wrote", async () => {
    const read = { toolCalls: [{ name: 'file_read', args: { path: 'notes.txt' } }] }
    const temp = await apps.setup(
      router(
        (_request, results) =>
          results === 0 ? read : results === 1 ? { toolCalls: [{ name: 'delegate', args: { task: 'rewrite notes.txt', tools: ['file_write'] } }] } : results === 2 ? read : { text: 'done' },
        (_task, results) => (results === 0 ? { toolCalls: [{ name: 'file_write', args: { path: 'notes.txt', content: 'written by the child\n' } }] } : { text: 'rewritten' })
      ),
      { autonomy: 'full' }
    )
    writeFileSync(join(temp.workspace, 'notes.txt'), 'the first version\n')
    const { runId, outcome } = await runPrompt(temp, 'read, delegate a rewrite, read again')
    expect(outcome).toMatchObject({ status: 'completed' })
    expect(readFileSync(join(temp.workspace, 'notes.txt'), 'utf8')).toBe('written by the child\n')
    const reads = temp.app.store.listEvents(runId).filter((e): e is AgentEventOf<'tool_call_completed'> => e.type === 'tool_call_completed' && e.tool === 'file_read')
    expect(reads).toHaveLength(2)
    expect(reads[0]!.output).toContain('the first version')
    expect(reads[1]!.cached ?? false).toBe(false)
    expect(reads[1]!.output).toContain('written by the child')
  })
})
