import { describe, expect, it } from 'vitest'
import { ApprovalBroker } from '../../../src/main/approvals'
import type { AgentEvent } from '../../../src/shared'

function broker(timeoutMs = 5_000) {
  const events: AgentEvent[] = []
  return { broker: new ApprovalBroker({ timeoutMs, emit: (event) => events.push(event) }), events }
}

const question = {
  runId: 'run_1',
  conversationId: 'conv_1',
  callId: 'call_1',
  tool: 'shell',
  args: { command: 'rm -rf build' },
  reason: 'asks',
  preview: { title: { key: 'Run' }, fields: [{ label: { key: 'Command' }, value: 'rm -rf build', code: true }] },
  assessment: { verdict: 'ask' as const, findings: [], alwaysRule: null },
  bindingHash: 'hash_1'
}
const shown = { bindingHash: 'hash_1' }

describe('ApprovalBroker', () => {
  it('denies at once when no front door is attached', async () => {
    const { broker: b, events } = broker()
    await expect(b.request(question)).resolves.toMatchObject({ answer: 'deny', by: 'no_front_door' })
    expect(events.map((e) => e.type)).toEqual(['approval_requested', 'approval_resolved'])
  })

  it('waits for an answer from a front door', async () => {
    const { broker: b, events } = broker()
    b.attachFrontDoor('test')
    const pending = b.request(question)
    expect(b.pending()).toHaveLength(1)
    const id = b.pending()[0]!.approvalId
    expect(b.respond(id, 'allow_once', shown)).toBe(true)
    expect(b.respond(id, 'deny', shown)).toBe(false) // already settled
    await expect(pending).resolves.toEqual({ approvalId: id, answer: 'allow_once', by: 'user' })
    expect(b.pending()).toHaveLength(0)
    expect(events.at(-1)).toMatchObject({ type: 'approval_resolved', answer: 'allow_once', by: 'user' })
  })

  it('denies when nobody answers in time', async () => {
    const { broker: b } = broker(50)
    b.attachFrontDoor('test')
    await expect(b.request(question)).resolves.toMatchObject({ answer: 'deny', by: 'timeout' })
  })

  it('denies when the run is cancelled', async () => {
    const { broker: b } = broker()
    b.attachFrontDoor('test')
    const controller = new AbortController()
    const pending = b.request({ ...question, signal: controller.signal })
    controller.abort()
    await expect(pending).resolves.toMatchObject({ answer: 'deny', by: 'cancelled' })
  })

  it('passes the reason for a denial on', async () => {
    const { broker: b } = broker()
    b.attachFrontDoor('test')
    const pending = b.request(question)
    const id = b.pending()[0]!.approvalId
    b.respond(id, 'deny', { reason: '  use the trash instead  ', ...shown })
    await expect(pending).resolves.toEqual({ approvalId: id, answer: 'deny', by: 'user', reason: 'use the trash instead' })
  })

  it('a detached front door no longer counts', async () => {
    const { broker: b } = broker()
    const detach = b.attachFrontDoor('test')
    detach()
    await expect(b.request(question)).resolves.toMatchObject({ by: 'no_front_door' })
  })

  it('refuses an answer given for something other than what is pending (binding hash)', async () => {
    const { broker: b } = broker()
    b.attachFrontDoor('test')
    const pending = b.request(question)
    const id = b.pending()[0]!.approvalId
    expect(b.respond(id, 'allow_once', { bindingHash: 'hash_of_another_call' })).toBe(false)
    expect(b.pending()).toHaveLength(1) // still waiting: a mismatched answer settles nothing
    expect(b.respond(id, 'allow_conversation', shown)).toBe(true)
    await expect(pending).resolves.toMatchObject({ answer: 'allow_conversation' })
  })
})
