import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ScriptStep } from '../fixtures/scripted-types'
import { runPrompt, scriptedApps, type TempApp } from '../helpers/temp-app'
import type { AgentEvent, AgentEventOf, ApprovalAnswer } from '../../src/shared'

/**
 * The loop's economy of tool calls (docs/architecture.md, "Approvals one at a time" and "Result
 * cache and repeated writes"): a real app, a real store, the scripted model.
 */
const { setup, server } = scriptedApps()

const call = (name: string, args: Record<string, unknown>) => ({ name, args })
const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is AgentEventOf<T> => e.type === type)

/** A front door that answers each question after a pause, so two questions asked at once would overlap. */
function slowApprover(temp: TempApp, answer: (n: number) => ApprovalAnswer, pauseMs = 60): void {
  temp.app.approvals.attachFrontDoor('slow-test')
  let asked = 0
  temp.app.events.subscribe((event) => {
    if (event.kind !== 'agent' || event.event.type !== 'approval_requested') return
    const { approvalId, bindingHash } = event.event
    const reply = answer(asked++)
    setTimeout(() => temp.app.approvals.respond(approvalId, reply, { bindingHash }), pauseMs)
  })
}

describe('approvals one at a time', () => {
  it('two risky calls of one step ask one after the other, in call order, and both run', async () => {
    const app = await setup([
      { toolCalls: [call('shell', { command: 'touch first.txt' }), call('shell', { command: 'touch second.txt' })] },
      { text: 'done' }
    ])
    slowApprover(app, () => 'allow_once')
    const { events } = await runPrompt(app, 'touch both')
    const sequence = events
      .filter((e) => e.type === 'approval_requested' || e.type === 'approval_resolved')
      .map((e) => (e.type === 'approval_requested' ? `asked ${String((e.args as { command: string }).command)}` : 'answered'))
    expect(sequence).toEqual(['asked touch first.txt', 'answered', 'asked touch second.txt', 'answered'])
    expect(of(events, 'tool_call_completed').map((e) => e.status)).toEqual(['completed', 'completed'])
  })

  it('a denial answers the later questions of the step on the same target: asked once, both denied', async () => {
    const app = await setup([
      { toolCalls: [call('file_write', { path: 'notes.txt', content: 'one' }), call('file_write', { path: 'notes.txt', content: 'two' }), call('file_write', { path: 'other.txt', content: 'x' })] },
      { text: 'ok' }
    ])
    slowApprover(app, (n) => (n === 0 ? 'deny' : 'allow_once'), 20)
    const { events } = await runPrompt(app, 'write')
    const asked = of(events, 'approval_requested').map((e) => (e.args as { path: string }).path)
    expect(asked).toEqual(['notes.txt', 'other.txt'])
    const statusByContent = of(events, 'tool_call_completed').map((e) => e.status)
    expect(statusByContent.filter((s) => s === 'denied')).toHaveLength(2)
    expect(readFileSync(join(app.workspace, 'other.txt'), 'utf8')).toBe('x')
  })
})

describe('result cache and repeated writes', () => {
  it('serves a repeated read from the cache, a write invalidates it, and a repeated write is flagged, not run', async () => {
    const read = { toolCalls: [call('file_read', { path: 'a.txt' })] }
    const write = { toolCalls: [call('file_write', { path: 'a.txt', content: 'second version\n' })] }
    const script: ScriptStep[] = [read, read, write, read, write, { text: 'done' }]
    const app = await setup(script, { autonomy: 'full' })
    writeFileSync(join(app.workspace, 'a.txt'), 'first version\n')
    const { events, conversationId } = await runPrompt(app, 'read, write, read')

    const completed = of(events, 'tool_call_completed')
    expect(completed.map((e) => [e.tool, e.status, e.cached ?? false])).toEqual([
      ['file_read', 'completed', false],
      ['file_read', 'completed', true],
      ['file_write', 'completed', false],
      ['file_read', 'completed', false],
      ['file_write', 'error', false]
    ])
    expect(completed[1]!.output).toContain('first version')
    expect(completed[3]!.output).toContain('second version')
    expect(completed[4]!.display?.key).toBe('toolRun.repeatedWrite')
    // The model got the cached text as the result of its second read, and was told the write was not repeated.
    const lastRequest = JSON.stringify(server().requests.at(-1)!.body)
    expect(lastRequest).toContain('did not run again')
    // A reload shows the cached mark too.
    const snapshot = app.app.store.getConversation(conversationId)!
    expect(snapshot.toolCalls.map((c) => c.cached ?? false)).toEqual([false, true, false, false, false])
  })

  it('a call whose repeat may give a new answer runs every time: two identical `date` commands both run, with different output', async () => {
    const tick = { toolCalls: [call('shell', { command: 'date +%s%N; sleep 1' })] }
    const app = await setup([tick, tick, { text: 'done' }], { autonomy: 'full' })
    slowApprover(app, () => 'allow_once', 5)
    const { events } = await runPrompt(app, 'what time is it, twice')
    const completed = of(events, 'tool_call_completed')
    expect(completed.map((e) => [e.tool, e.status])).toEqual([
      ['shell', 'completed'],
      ['shell', 'completed']
    ])
    const stamps = completed.map((e) => /\d{12,}/.exec(e.output ?? '')?.[0])
    expect(stamps[0]).toBeDefined()
    expect(stamps[1]).toBeDefined()
    expect(stamps[1]).not.toBe(stamps[0])
    expect(JSON.stringify(server().requests.at(-1)!.body)).not.toContain('did not run again')
  })

  it('a file changed by the user between reads is seen once the cache expires (TTL 0 turns it off)', async () => {
    const read = { toolCalls: [call('file_read', { path: 'b.txt' })] }
    const app = await setup(
      [
        read,
        (request) => {
          void request
          writeFileSync(join(app.workspace, 'b.txt'), 'changed outside\n')
          return read
        },
        { text: 'done' }
      ],
      { readCacheTtlSec: 0 }
    )
    writeFileSync(join(app.workspace, 'b.txt'), 'original\n')
    const { events } = await runPrompt(app, 'read twice')
    const completed = of(events, 'tool_call_completed')
    expect(completed.map((e) => e.cached ?? false)).toEqual([false, false])
    expect(completed[1]!.output).toContain('changed outside')
  })
})
