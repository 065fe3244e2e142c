import type { Statements } from './statements'

/**
 * A batch's streamed tool output, one UPDATE per call instead of one per chunk (docs/benchmarks.md,
 * "Store"). Lives for one write transaction: the chunks of a call are joined and appended to its row
 * before any other event of its run touches the row, and at the end of the batch, so what the
 * transaction commits is what one UPDATE per chunk committed.
 */
export class PendingToolOutputs {
  /** runId → callId → chunks in arrival order. */
  private readonly pending = new Map<string, Map<string, string[]>>()

  constructor(private readonly statements: Statements) {}

  add(runId: string, callId: string, chunk: string): void {
    let calls = this.pending.get(runId)
    if (!calls) this.pending.set(runId, (calls = new Map()))
    const chunks = calls.get(callId)
    if (chunks) chunks.push(chunk)
    else calls.set(callId, [chunk])
  }

  /** Writes what a run's calls streamed so far (before another event of the run is projected). */
  writeRun(runId: string): void {
    const calls = this.pending.get(runId)
    if (!calls) return
    this.pending.delete(runId)
    for (const [callId, chunks] of calls) {
      this.statements.appendToolOutput.run({ runId, callId, chunk: chunks.length === 1 ? chunks[0]! : chunks.join('') })
    }
  }

  /** Writes everything still pending (the end of the batch, inside its transaction). */
  writeAll(): void {
    for (const runId of [...this.pending.keys()]) this.writeRun(runId)
  }
}
