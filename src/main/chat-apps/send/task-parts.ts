/**
 * Small parts both ways of sending (the accessibility tree and the screen) use: waiting that Stop
 * ends, the profile's header extras as patterns, and a reading shortened to one line for a step.
 */

/** Waits `ms`, or rejects at once with the signal's reason when the task is stopped. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('stopped'))
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason instanceof Error ? signal.reason : new Error('stopped'))
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** A profile's patterns (header extras); one that does not compile is left out rather than failing the send. */
export function compilePatterns(patterns: string[]): RegExp[] {
  return patterns.flatMap((p) => {
    try {
      return [new RegExp(p, 'u')]
    } catch {
      return []
    }
  })
}

/** A reading as one line of at most 120 characters, for a step's detail. */
export function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ').trim()
  return flat.length > 120 ? `${flat.slice(0, 117)}…` : flat
}
