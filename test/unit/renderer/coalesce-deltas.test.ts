import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../src/shared/agent-events'
import { coalesceDeltas } from '../../../src/renderer/src/stores/coalesce-deltas'
import { emptySnapshot, reduceChat } from '../../../src/renderer/src/stores/reducers'

const conversationId = 'conv_1'
const runId = 'run_1'

/** A deterministic pseudo-random stream: deltas of two messages, outputs of two calls on both streams, other events between. */
function randomStream(seed: number, length: number): AgentEvent[] {
  let state = seed
  const next = (n: number): number => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state % n
  }
  const base = (at: number) => ({ runId, conversationId, at })
  const events: AgentEvent[] = [{ ...base(0), type: 'run_started', prompt: 'go', model: 'm' } as AgentEvent]
  for (const callId of ['call_a', 'call_b']) events.push({ ...base(1), type: 'tool_call_started', callId, tool: 'shell', args: { command: 'x' } })
  for (let i = 0; i < length; i++) {
    const piece = `p${i}.`
    switch (next(5)) {
      case 0:
      case 1:
        events.push({ ...base(i), type: 'text_delta', messageId: next(4) === 0 ? 'msg_b' : 'msg_a', delta: piece })
        break
      case 2:
      case 3:
        events.push({ ...base(i), type: 'tool_output_delta', callId: next(2) ? 'call_a' : 'call_b', stream: next(3) ? 'stdout' : 'stderr', chunk: piece })
        break
      default:
        events.push({ ...base(i), type: 'tool_progress', callId: 'call_a', tool: 'shell', step: 'step', ok: true, detail: piece })
    }
  }
  return events
}

describe('coalesceDeltas', () => {
  it('gives the chat the state it gets from the events one by one, for any interleaving', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const events = randomStream(seed, 300)
      const oneByOne = events.reduce(reduceChat, emptySnapshot(conversationId))
      const joined = coalesceDeltas(events)
      expect(joined.reduce(reduceChat, emptySnapshot(conversationId))).toEqual(oneByOne)
      expect(joined.length).toBeLessThanOrEqual(events.length)
    }
  })

  it('joins a frame of deltas of one message into one event, and keeps apart what is not neighbouring', () => {
    const delta = (messageId: string, text: string): AgentEvent => ({ type: 'text_delta', runId, conversationId, at: 1, messageId, delta: text })
    const many = Array.from({ length: 10_000 }, (_, i) => delta('msg_a', `${i % 10}`))
    expect(coalesceDeltas(many)).toEqual([delta('msg_a', many.map((event) => (event as { delta: string }).delta).join(''))])
    expect(coalesceDeltas([delta('msg_a', 'a'), delta('msg_b', 'b'), delta('msg_a', 'c')])).toHaveLength(3)
    expect(coalesceDeltas([])).toEqual([])
  })
})
