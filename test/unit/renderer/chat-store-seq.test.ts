// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the node typecheck includes test/; this file pulls in renderer stores, which need the renderer globals
/// <reference path="../../../src/renderer/src/env.d.ts" />
/**
 * The chat store applies each agent event once, whatever the order in which a loaded snapshot and
 * the live stream reach it. A read of the store commits and publishes the queued events before it
 * answers (docs/architecture.md, "One event stream"), so those events reach the page before or
 * beside the snapshot that already holds them, and the frame batcher (event-batch.ts) may apply
 * them only after the snapshot arrived: their seq (at most the snapshot's lastEventSeq) says they
 * are in it. Later events (a higher seq) are applied.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { AgentEventOf } from '../../../src/shared/agent-events'
import type { ConversationDetail, ToolStep } from '../../../src/shared/bridge'

const invoke = vi.fn()
vi.mock('../../../src/renderer/src/bridge', () => ({ getDeskclawApi: () => ({ invoke }) }))
const { useChatStore } = await import('../../../src/renderer/src/stores/chat')
const { createEventBatcher } = await import('../../../src/renderer/src/stores/event-batch')

const conv = 'conv_seq'
const scope = { runId: 'run_seq', conversationId: conv }
const callId = 'call_send'

const progress = (step: string, at: number): AgentEventOf<'tool_progress'> => ({
  type: 'tool_progress',
  ...scope,
  at,
  callId,
  tool: 'chat_send',
  step,
  ok: true,
  detail: step
})

/** What conversations.get answers: the call with the steps the store holds, up to lastEventSeq. */
const detail = (steps: ToolStep[], lastEventSeq: number): ConversationDetail & { lastEventSeq: number } => ({
  conversation: { id: conv, title: 'Send a message', createdAt: 1, updatedAt: 1, workspace: null },
  messages: [],
  toolCalls: [
    { id: callId, ...scope, tool: 'chat_send', args: {}, status: 'running', isError: false, output: '', startedAt: 1, endedAt: null, durationMs: null, steps }
  ],
  runs: [{ id: scope.runId, conversationId: conv, status: 'running', stopReason: null, error: null, startedAt: 1, endedAt: null, usage: null }],
  lastEventSeq
})

const stepsShown = () =>
  useChatStore
    .getState()
    .snapshot?.toolCalls.find((call) => call.id === callId)
    ?.steps?.map((s) => s.step)

/** A batcher whose frames the test runs by hand, as the page's own (stores/app.ts) feeds the chat store. */
function pageStream() {
  let frame: (() => void) | null = null
  const batcher = createEventBatcher(
    (entries) => useChatStore.getState().applyEvents(entries),
    (flush) => {
      frame = flush
      return () => (frame = null)
    }
  )
  return { batcher, nextFrame: () => frame?.() }
}

describe('chat store: a loaded snapshot and the live stream', () => {
  beforeEach(async () => {
    invoke.mockReset()
    await useChatStore.getState().open(null)
  })

  it('does not apply again the steps the snapshot holds when their events are applied after it arrived', async () => {
    const { batcher, nextFrame } = pageStream()
    const activated = progress('activated', 10)
    const searched = progress('searched', 20)
    // The read commits and publishes both steps (seq 7 and 8) and answers with a snapshot holding them.
    invoke.mockImplementationOnce(async () => {
      batcher.push({ event: activated, seq: 7 })
      batcher.push({ event: searched, seq: 8 })
      return { ok: true, data: detail([activated, searched].map(({ step, ok, detail: d, at }) => ({ step, ok, detail: d, at })), 8) }
    })
    await useChatStore.getState().open(conv)
    expect(stepsShown()).toEqual(['activated', 'searched'])
    // The next frame applies what the batcher queued while the snapshot was read.
    nextFrame()
    expect(stepsShown()).toEqual(['activated', 'searched'])
    // A later step (a higher seq) is applied once.
    batcher.push({ event: progress('target_verified', 30), seq: 9 })
    nextFrame()
    expect(stepsShown()).toEqual(['activated', 'searched', 'target_verified'])
  })

  it('applies the events that raced the load but are newer than the snapshot', async () => {
    const activated = progress('activated', 10)
    const searched = progress('searched', 20)
    let answer: (value: unknown) => void = () => {}
    invoke.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)))
    const opened = useChatStore.getState().open(conv)
    useChatStore.getState().applyEvents([
      { event: activated, seq: 7 },
      { event: searched, seq: 8 }
    ])
    answer({ ok: true, data: detail([{ step: 'activated', ok: true, detail: 'activated', at: 10 }], 7) })
    await opened
    expect(stepsShown()).toEqual(['activated', 'searched'])
  })

  it('takes a new snapshot seq on each load (a reloaded conversation, a restarted app)', async () => {
    invoke.mockResolvedValueOnce({ ok: true, data: detail([], 50) })
    await useChatStore.getState().open(conv)
    useChatStore.getState().applyEvents([{ event: progress('activated', 10), seq: 50 }])
    expect(stepsShown()).toEqual([])
    // The app started again: its seqs start from 1, and the reload says so.
    invoke.mockResolvedValueOnce({ ok: true, data: detail([], 0) })
    await useChatStore.getState().refresh()
    useChatStore.getState().applyEvents([{ event: progress('activated', 10), seq: 1 }])
    expect(stepsShown()).toEqual(['activated'])
  })
})
