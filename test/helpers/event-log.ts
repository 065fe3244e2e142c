/**
 * What a test window reported, in order, and a wait for the first event that matches — past or
 * future — that gives up when the window's process ends or the time runs out, listing what it saw.
 * Used by the GTK probe window and the chat-app window.
 */
export interface EventLog<E> {
  /** Every event so far, in order. */
  readonly events: E[]
  push(event: E): void
  /** The window's process ended (`exited (code …)`, `could not start (…)`): waits reject from now on. */
  end(how: string): void
  /** How it ended, or undefined while it runs. */
  ended(): string | undefined
  waitFor(pred: (event: E, index: number) => boolean, timeoutMs?: number): Promise<E>
}

/** `name` starts the errors (`probe window "Canvas"`); `stderr()` is appended when the process ended. */
export function createEventLog<E>(name: string, stderr: () => string): EventLog<E> {
  const events: E[] = []
  const waiters = new Set<() => void>()
  let endedHow: string | undefined
  const wake = (): void => {
    for (const waiter of [...waiters]) waiter()
  }
  const describe = (): string => (events.length === 0 ? '(none)' : events.map((event, index) => `  ${index}: ${JSON.stringify(event)}`).join('\n'))

  return {
    events,
    push(event) {
      events.push(event)
      wake()
    },
    end(how) {
      endedHow = how
      wake()
    },
    ended: () => endedHow,
    waitFor: (pred, timeoutMs = 5_000) =>
      new Promise((resolve, reject) => {
        let scanned = 0
        const finish = (): void => {
          waiters.delete(check)
          clearTimeout(timer)
        }
        const check = (): void => {
          for (; scanned < events.length; scanned++) {
            if (pred(events[scanned]!, scanned)) {
              finish()
              resolve(events[scanned]!)
              return
            }
          }
          if (endedHow !== undefined) {
            finish()
            reject(new Error(`${name} ${endedHow} before the awaited event. Events seen:\n${describe()}\nstderr:\n${stderr()}`))
          }
        }
        const timer = setTimeout(() => {
          finish()
          reject(new Error(`${name}: no matching event within ${timeoutMs} ms. Events seen:\n${describe()}`))
        }, timeoutMs)
        waiters.add(check)
        check()
      })
  }
}
