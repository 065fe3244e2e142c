/** At most `limit()` holders at once; the rest wait in order (sub-agents: docs/tools.md, "Sub-agents"). */
export class RunSlots {
  private held = 0
  private readonly waiting: Array<() => void> = []

  constructor(private readonly limit: () => number) {}

  /** Resolves when a slot is free; rejects when `signal` aborts first. Call the returned function once to free it. */
  async acquire(signal: AbortSignal): Promise<() => void> {
    while (this.held >= Math.max(1, this.limit())) {
      if (signal.aborted) throw signal.reason ?? new Error('cancelled')
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          const index = this.waiting.indexOf(wake)
          if (index >= 0) this.waiting.splice(index, 1)
          reject(signal.reason ?? new Error('cancelled'))
        }
        const wake = (): void => {
          signal.removeEventListener('abort', onAbort)
          resolve()
        }
        this.waiting.push(wake)
        signal.addEventListener('abort', onAbort, { once: true })
      })
    }
    this.held++
    let freed = false
    return () => {
      if (freed) return
      freed = true
      this.held--
      this.waiting.shift()?.()
    }
  }
}
