import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AgentEvent } from '../../../src/shared/agent-events'
import { type AgentEventEntry, createEventBatcher, MAX_WAIT_MS, nextFrame } from '../../../src/renderer/src/stores/event-batch'

const scope = { runId: 'r1', conversationId: 'c1' }
let seq = 0
const delta = (text: string): AgentEventEntry => ({
  event: { type: 'text_delta', ...scope, at: 1, messageId: 'm1', delta: text },
  seq: ++seq
})
const question = (): AgentEventEntry => ({
  event: {
    type: 'approval_requested',
    ...scope,
    at: 2,
    approvalId: 'a1',
    callId: 'call_1',
    tool: 'file_write',
    args: {},
    reason: 'writes',
    preview: { title: { key: 'Write' }, fields: [] },
    assessment: { verdict: 'ask', findings: [], alwaysRule: null },
    bindingHash: 'h',
    expiresAt: 10
  } satisfies AgentEvent,
  seq: ++seq
})

/** A scheduler the test runs by hand: `frame()` is the next animation frame. */
function manualFrames() {
  let pending: Array<() => void> = []
  let scheduled = 0
  return {
    schedule(flush: () => void) {
      scheduled++
      pending.push(flush)
      return () => {
        pending = pending.filter((f) => f !== flush)
      }
    },
    frame() {
      const run = pending
      pending = []
      for (const flush of run) flush()
    },
    scheduled: () => scheduled,
    waiting: () => pending.length
  }
}

describe('createEventBatcher', () => {
  it('queues events and applies them in one batch, in order, at the next frame', () => {
    const frames = manualFrames()
    const batches: string[][] = []
    const batcher = createEventBatcher((entries) => batches.push(entries.map((e) => (e.event as { delta: string }).delta)), frames.schedule)
    batcher.push(delta('a'))
    batcher.push(delta('b'))
    batcher.push(delta('c'))
    expect(batches).toEqual([])
    expect(frames.scheduled()).toBe(1) // one frame asked for, not one per event
    expect(batcher.pending()).toBe(3)
    frames.frame()
    expect(batches).toEqual([['a', 'b', 'c']])
    expect(batcher.pending()).toBe(0)
    frames.frame()
    expect(batches).toHaveLength(1) // nothing left: no empty batch
    batcher.push(delta('d'))
    frames.frame()
    expect(batches).toEqual([['a', 'b', 'c'], ['d']])
  })

  it('applies an approval request at once, with everything queued before it', () => {
    const frames = manualFrames()
    const batches: string[][] = []
    const batcher = createEventBatcher((entries) => batches.push(entries.map((e) => e.event.type)), frames.schedule)
    batcher.push(delta('a'))
    batcher.push(question())
    expect(batches).toEqual([['text_delta', 'approval_requested']])
    expect(frames.waiting()).toBe(0) // the frame it had asked for is cancelled
    batcher.push(delta('b'))
    frames.frame()
    expect(batches).toEqual([['text_delta', 'approval_requested'], ['text_delta']])
  })

  it('flush() applies the queue now (before another kind of event, or a stop)', () => {
    const frames = manualFrames()
    const apply = vi.fn()
    const batcher = createEventBatcher(apply, frames.schedule)
    batcher.flush()
    expect(apply).not.toHaveBeenCalled()
    const entry = delta('x')
    batcher.push(entry)
    batcher.flush()
    expect(apply).toHaveBeenCalledWith([entry])
    frames.frame()
    expect(apply).toHaveBeenCalledTimes(1)
  })
})

describe('nextFrame', () => {
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it('runs at the animation frame, once', () => {
    vi.useFakeTimers()
    let frame: (() => void) | undefined
    vi.stubGlobal('requestAnimationFrame', (cb: () => void) => ((frame = cb), 7))
    vi.stubGlobal('cancelAnimationFrame', vi.fn())
    const flush = vi.fn()
    nextFrame(flush)
    frame!()
    vi.advanceTimersByTime(MAX_WAIT_MS)
    expect(flush).toHaveBeenCalledTimes(1)
  })

  it('runs after MAX_WAIT_MS when no frame comes (a hidden window), and can be cancelled', () => {
    vi.useFakeTimers()
    vi.stubGlobal('requestAnimationFrame', () => 1)
    vi.stubGlobal('cancelAnimationFrame', vi.fn())
    const flush = vi.fn()
    nextFrame(flush)
    vi.advanceTimersByTime(MAX_WAIT_MS - 1)
    expect(flush).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(flush).toHaveBeenCalledTimes(1)
    const other = vi.fn()
    nextFrame(other)()
    vi.advanceTimersByTime(MAX_WAIT_MS * 2)
    expect(other).not.toHaveBeenCalled()
  })
})
