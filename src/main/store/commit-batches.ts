import type { AgentEvent } from '../../shared'

/** Items committed in one transaction: agent events and the model messages of a run, in the order given. */
export type BatchItem =
  | { kind: 'event'; event: AgentEvent }
  | { kind: 'model_messages'; conversationId: string; runId: string; messages: unknown[] }

/** How long an event may wait for its batch, and how many make a batch (docs/architecture.md, "Store"). */
export const BATCH_TICK_MS = 4
/**
 * The bound only splits bursts that arrive faster than the tick (a replay, a synchronous writer); it
 * is no later than the tick for the first of them. 2,048: ~2 ms less CPU per 10,000 events than 512
 * (fewer commits, each rewriting the log's last pages), 4,096 no better with twice the longest
 * transaction (docs/benchmarks.md, "Store").
 */
export const BATCH_MAX_ITEMS = 2_048

export type CommittedListener = (event: AgentEvent) => void

export interface CommitBatchesOptions {
  /**
   * Writes the items in one transaction. Throws when none could be written (a full disk); returns the
   * items it had to leave out, with why, when the others could still be written without them.
   */
  commit(items: readonly BatchItem[]): { dropped: readonly BatchItem[]; error?: unknown }
  /** What a failed commit becomes for the next caller (a full disk, with its own message). */
  describeFailure(error: unknown, items: readonly BatchItem[]): Error
  tickMs?: number
  maxItems?: number
}

/**
 * Group commit (issue 28): items wait at most one short tick, or until BATCH_MAX_ITEMS are queued,
 * and are committed in one transaction. Listeners hear of an event only after the transaction that
 * holds it committed, so a front door never shows what a `kill -9` could still lose. A run's end is
 * committed at once: whoever awaits the run finds it all on disk. So is its start: the first event
 * is shown without waiting a tick, before the run's first model call does its work (loading the AI
 * SDK for its providers; docs/benchmarks.md, "CLI start-up").
 *
 * Items that cannot be written are dropped (none was shown) and the failure is thrown once, by the
 * next `add` or `flush`, so the run fails as it did when each event was its own transaction; a run's
 * end still reaches every front door (docs/cli.md, "When the disk is full").
 */
export class CommitBatches {
  private queue: BatchItem[] = []
  private timer: ReturnType<typeof setTimeout> | null = null
  private failure: Error | null = null
  private readonly listeners = new Set<CommittedListener>()
  /** Committed events not yet told, so a listener that causes a commit cannot reorder what others hear. */
  private readonly untold: AgentEvent[] = []
  private telling = false
  private committing = false
  /** Transactions committed so far (bench/loop.bench.ts counts them per run). */
  commits = 0

  constructor(private readonly options: CommitBatchesOptions) {}

  onCommitted(listener: CommittedListener): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  add(item: BatchItem): void {
    const ends = item.kind === 'event' && endsRun(item.event)
    if (!ends) this.throwFailure()
    this.queue.push(item)
    const now = ends || (item.kind === 'event' && item.event.type === 'run_started')
    if (now || this.queue.length >= (this.options.maxItems ?? BATCH_MAX_ITEMS)) this.flush()
    else this.timer ??= setTimeout(() => this.flush(), this.options.tickMs ?? BATCH_TICK_MS)
  }

  get pending(): boolean {
    return this.queue.length > 0
  }

  /** Commits what is queued now and throws what could not be written since the last throw. */
  flushOrThrow(): void {
    this.flush()
    this.throwFailure()
  }

  /** Commits what is queued now (reads call this first, so they see every event recorded). */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = null
    }
    if (this.committing || this.queue.length === 0) return
    const items = this.queue
    this.queue = []
    this.committing = true
    let dropped: ReadonlySet<BatchItem>
    try {
      const result = this.options.commit(items)
      this.commits++
      dropped = new Set(result.dropped)
      if (result.dropped.length > 0) this.failure ??= this.options.describeFailure(result.error, result.dropped)
    } catch (error) {
      dropped = new Set(items)
      this.failure ??= this.options.describeFailure(error, items)
    } finally {
      this.committing = false
    }
    // The end of a run is told even when it could not be written: without it no front door would stop waiting.
    const told = items.flatMap((item) => (item.kind === 'event' && (!dropped.has(item) || endsRun(item.event)) ? [item.event] : []))
    this.tell(told)
    // Items a listener added while this batch was committed or told (an approval answered at once).
    if (this.queue.length > 0) this.timer ??= setTimeout(() => this.flush(), this.options.tickMs ?? BATCH_TICK_MS)
  }

  private throwFailure(): void {
    const failure = this.failure
    this.failure = null
    if (failure) throw failure
  }

  private tell(events: AgentEvent[]): void {
    for (const event of events) this.untold.push(event)
    if (this.telling) return
    this.telling = true
    try {
      for (let i = 0; i < this.untold.length; i++) {
        const event = this.untold[i]!
        for (const listener of [...this.listeners]) {
          try {
            listener(event)
          } catch (error) {
            console.error('[deskclaw] a committed-event listener failed:', error)
          }
        }
      }
    } finally {
      this.untold.length = 0
      this.telling = false
    }
  }
}

function endsRun(event: AgentEvent): boolean {
  return event.type === 'run_completed' || event.type === 'run_failed'
}
