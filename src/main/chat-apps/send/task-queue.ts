/**
 * One send-text task at a time, each with a deadline (docs/desktop.md, "Sending messages"). A task
 * past its deadline is cancelled through its signal — never left running — and says itself how it
 * ended (not sent, or unknown once the send key was pressed). The time a person takes to answer
 * the approval does not count: the deadline is paused while the task waits for them.
 */

export interface TaskDeadline {
  /** Aborted on timeout, or when the caller's own signal aborts. */
  signal: AbortSignal
  /** Stops the clock (while a person is asked); `resume` starts it again with the time that was left. */
  pause(): void
  resume(): void
}

export class TaskTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${Math.round(timeoutMs / 1000)} s`)
  }
}

export class TaskQueue {
  private tail: Promise<unknown> = Promise.resolve()
  private waiting = 0

  /** Tasks queued or running. */
  get size(): number {
    return this.waiting
  }

  /**
   * Runs `task` after the ones before it and resolves with its result. The deadline starts when
   * the task starts; waiting in the queue counts against the caller's signal only.
   */
  runAndWait<T>(task: (deadline: TaskDeadline) => Promise<T>, options: { timeoutMs: number; signal?: AbortSignal }): Promise<T> {
    this.waiting++
    const run = this.tail.then(() => runWithDeadline(task, options))
    this.tail = run.catch(() => {}).finally(() => this.waiting--)
    return run
  }
}

async function runWithDeadline<T>(task: (deadline: TaskDeadline) => Promise<T>, options: { timeoutMs: number; signal?: AbortSignal }): Promise<T> {
  const controller = new AbortController()
  const outer = options.signal
  const onOuterAbort = () => controller.abort(outer?.reason)
  if (outer?.aborted) controller.abort(outer.reason)
  else outer?.addEventListener('abort', onOuterAbort, { once: true })
  let left = options.timeoutMs
  let startedAt = Date.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  const arm = () => {
    startedAt = Date.now()
    timer = setTimeout(() => controller.abort(new TaskTimeoutError(options.timeoutMs)), Math.max(0, left))
  }
  arm()
  const deadline: TaskDeadline = {
    signal: controller.signal,
    pause: () => {
      if (timer === undefined) return
      clearTimeout(timer)
      timer = undefined
      left -= Date.now() - startedAt
    },
    resume: () => {
      if (timer === undefined && !controller.signal.aborted) arm()
    }
  }
  try {
    return await task(deadline)
  } finally {
    if (timer !== undefined) clearTimeout(timer)
    outer?.removeEventListener('abort', onOuterAbort)
  }
}
