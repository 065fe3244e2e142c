import type { BridgeEvent } from '../../shared'

type Listener = (event: BridgeEvent) => void

/** Fan-out of bridge events to every front door (windows, web clients, the CLI). */
export class EventBus {
  private readonly listeners = new Set<Listener>()

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  publish(event: BridgeEvent): void {
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
