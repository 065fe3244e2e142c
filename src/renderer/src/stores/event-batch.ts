/**
 * Live agent events, applied once per animation frame: a run that streams hundreds of events a
 * second would otherwise re-render the chat for each one. Events wait in a queue (in order) and
 * are applied together at the next frame; a question (approval_requested) is applied at once,
 * together with everything before it, so it never waits. No React and no stores here: unit-tested
 * under plain Node with a fake scheduler (test/unit/renderer/event-batch.test.ts).
 */
import type { AgentEvent } from '../../../shared/agent-events'

export interface AgentEventEntry {
  event: AgentEvent
  /** The bridge's sequence number (orders live events against a loaded snapshot). */
  seq: number
}

/** Runs `flush` later; returns a function that cancels it. */
export type Scheduler = (flush: () => void) => () => void

export interface EventBatcher {
  push(entry: AgentEventEntry): void
  /** Applies what is queued now (before something that must see it: another event kind, a stop). */
  flush(): void
  /** How many events wait. */
  pending(): number
  /** Forgets the scheduled flush (the queue stays; `flush()` still applies it). */
  cancel(): void
}

/** Events applied the moment they arrive, with everything queued before them. */
export function isUrgent(event: AgentEvent): boolean {
  return event.type === 'approval_requested'
}

/** How long events may wait when no frame comes (a hidden window or tab gets no frames). */
export const MAX_WAIT_MS = 250

/** The next animation frame, or MAX_WAIT_MS if frames have stopped; whichever comes first. */
export const nextFrame: Scheduler = (flush) => {
  let done = false
  const run = () => {
    if (done) return
    done = true
    cancelAnimationFrame(frame)
    clearTimeout(timer)
    flush()
  }
  const frame = requestAnimationFrame(run)
  const timer = setTimeout(run, MAX_WAIT_MS)
  return () => {
    done = true
    cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}

export function createEventBatcher(
  apply: (entries: AgentEventEntry[]) => void,
  schedule: Scheduler = nextFrame,
  urgent: (event: AgentEvent) => boolean = isUrgent
): EventBatcher {
  let queue: AgentEventEntry[] = []
  let cancelScheduled: (() => void) | null = null

  const cancel = () => {
    cancelScheduled?.()
    cancelScheduled = null
  }

  const flush = () => {
    cancel()
    if (queue.length === 0) return
    const entries = queue
    queue = []
    apply(entries)
  }

  return {
    push(entry) {
      queue.push(entry)
      if (urgent(entry.event)) flush()
      else if (!cancelScheduled) cancelScheduled = schedule(flush)
    },
    flush,
    pending: () => queue.length,
    cancel
  }
}
