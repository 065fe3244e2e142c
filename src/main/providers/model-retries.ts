import { APICallError } from '@ai-sdk/provider'
import { errorMessage } from '../../shared'

const INITIAL_DELAY_MS = 2_000
const BACKOFF_FACTOR = 2
/** A server's retry-after is followed only when it is shorter than this (the AI SDK's rule). */
const MAX_SERVER_DELAY_MS = 60_000

/**
 * The model calls a retry gave up on: every attempt's error, the last one last. Marked like the AI
 * SDK's RetryError, so describeModelError counts the attempts of either the same way.
 */
export class ModelRetryError extends Error {
  readonly lastError: unknown

  constructor(readonly errors: unknown[]) {
    super(`Failed after ${errors.length} attempts. Last error: ${errorMessage(errors.at(-1))}`)
    this.name = 'AI_RetryError'
    this.lastError = errors.at(-1)
    ;(this as unknown as Record<symbol, boolean>)[RETRY_MARK] = true
  }
}

const RETRY_MARK = Symbol.for('vercel.ai.error.AI_RetryError')

/**
 * Runs `attempt` again after a retryable failure — an APICallError the SDK would call retryable
 * (408, 409, 429, 5xx, a connection that failed) — 2 s, 4 s, 8 s … apart, or after the server's
 * `retry-after-ms` / `retry-after` when that is under a minute (docs/architecture.md, "Model
 * clients"; the same policy streamText applies to the SDK providers). An abort ends the wait.
 */
export async function withModelRetries<T>(attempt: () => Promise<T>, options: { maxRetries: number; signal: AbortSignal }): Promise<T> {
  const errors: unknown[] = []
  let delay = INITIAL_DELAY_MS
  for (;;) {
    try {
      return await attempt()
    } catch (error) {
      if (options.signal.aborted || isAbort(error) || options.maxRetries === 0) throw error
      errors.push(error)
      const retryable = APICallError.isInstance(error) && error.isRetryable
      if (!retryable || errors.length > options.maxRetries) {
        if (errors.length === 1) throw error
        throw new ModelRetryError(errors)
      }
      await sleep(serverDelay(error) ?? delay, options.signal)
      delay *= BACKOFF_FACTOR
    }
  }
}

function serverDelay(error: APICallError): number | undefined {
  const headers = error.responseHeaders
  if (!headers) return undefined
  let ms: number | undefined
  const afterMs = headers['retry-after-ms']
  if (afterMs && !Number.isNaN(parseFloat(afterMs))) ms = parseFloat(afterMs)
  const after = headers['retry-after']
  if (after && ms === undefined) ms = Number.isNaN(parseFloat(after)) ? Date.parse(after) - Date.now() : parseFloat(after) * 1000
  return ms !== undefined && !Number.isNaN(ms) && ms >= 0 && ms < MAX_SERVER_DELAY_MS ? ms : undefined
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error)
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal.reason as Error)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

function isAbort(error: unknown): boolean {
  return (error instanceof Error || error instanceof DOMException) && error.name === 'AbortError'
}
