import type { Clock } from '../../src/main/app'

/** A clock a test moves: timers fire when `advance` passes their time, in order. */
export class TestClock implements Clock {
  private timers: Array<{ at: number; fn: () => void }> = []

  constructor(private current: number) {}

  now(): number {
    return this.current
  }

  setTimer(ms: number, fn: () => void): () => void {
    const timer = { at: this.current + ms, fn }
    this.timers.push(timer)
    return () => {
      this.timers = this.timers.filter((t) => t !== timer)
    }
  }

  /** Moves time forward by `ms`, firing each timer due on the way at its own time. */
  advance(ms: number): void {
    const end = this.current + ms
    for (;;) {
      const next = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0]
      if (!next) break
      this.timers = this.timers.filter((t) => t !== next)
      this.current = Math.max(this.current, next.at)
      next.fn()
    }
    this.current = end
  }

  /** How many timers are waiting. */
  pending(): number {
    return this.timers.length
  }
}
