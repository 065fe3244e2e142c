import type { BridgeEvent } from '../../shared'

type Listener = (event: BridgeEvent) => void

/**
 * Fan-out of bridge events to every front door (windows, web clients, the CLI).
 *
 * Every listener sees events in the order they were published. A listener may publish while it
 * is being told of an event (the CLI's `--approve allow` answers inside `approval_requested`, and
 * the answer publishes `approval_resolved`): that event waits until the current one has reached
 * every listener, so no front door sees an answer before its question (docs/cli.md, NDJSON order).
 */
export class EventBus {
  private readonly listeners = new Set<Listener>()
  private readonly queue: BridgeEvent[] = []
  private delivering = false

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  publish(event: BridgeEvent): void {
    this.queue.push(event)
    if (this.delivering) return
    this.delivering = true
    try {
      for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) this.deliver(next)
    } finally {
      this.delivering = false
    }
  }

  private deliver(event: BridgeEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event)
      } catch (error) {
        // One broken front door must not stop the others or the run.
        console.error('[deskclaw] event listener failed:', error)
      }
    }
  }
}
