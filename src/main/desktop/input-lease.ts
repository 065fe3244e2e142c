/**
 * One run drives the keyboard and mouse at a time (docs/desktop.md, "The input lock"). A run takes
 * the lease with its first input action and keeps it until it ends, so two runs never interleave
 * their clicks; another run is told who holds it instead of waiting.
 */
export interface LeaseHolder {
  runId: string
  conversationId: string
  since: number
}

export type LeaseAttempt = { ok: true; holder: LeaseHolder } | { ok: false; holder: LeaseHolder }

export class InputLease {
  private holder: LeaseHolder | null = null
  private readonly listeners = new Set<(holder: LeaseHolder | null) => void>()

  acquire(runId: string, conversationId: string): LeaseAttempt {
    if (this.holder && this.holder.runId !== runId) return { ok: false, holder: this.holder }
    if (!this.holder) {
      this.holder = { runId, conversationId, since: Date.now() }
      this.changed()
    }
    return { ok: true, holder: this.holder }
  }

  /** Releases the lease if `runId` holds it; returns whether it did. */
  release(runId: string): boolean {
    if (this.holder?.runId !== runId) return false
    this.holder = null
    this.changed()
    return true
  }

  current(): LeaseHolder | null {
    return this.holder
  }

  onChange(listener: (holder: LeaseHolder | null) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener(this.holder)
  }
}
