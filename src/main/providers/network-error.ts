import { AppError, type ErrorText } from '../../shared'

/**
 * Node's fetch (undici) fails with `TypeError: fetch failed` and hides the reason in `cause`
 * (an Error with `code`, sometimes an AggregateError, or just a message like "bad port"); the AI
 * SDK wraps that once more in an APICallError. This digs the short reason out of the chain.
 */
export function networkErrorCode(error: unknown): string | undefined {
  const seen = new Set<unknown>()
  let current: unknown = error
  let fallback: string | undefined
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current)
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && code !== '') return code
    if (current instanceof AggregateError) {
      const inner = current.errors.map((e) => networkErrorCode(e)).find((c) => c !== undefined)
      if (inner) return inner
    }
    if (current.message === 'bad port') fallback = 'bad port'
    if (current.message === 'terminated' && fallback === undefined) fallback = 'connection terminated'
    current = current.cause
  }
  return fallback
}

/** Reasons that will not go away by retrying in a few seconds: nothing listens, no such host. */
export const FAIL_FAST_NETWORK_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'bad port'])

/** The connection broke after it was made (mid-request or mid-stream). */
export const CONNECTION_LOST_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'connection terminated'
])

export function unreachableMessage(baseUrl: string, code: string): string {
  if (CONNECTION_LOST_CODES.has(code)) return `Lost the connection to the model server at ${baseUrl} (${code}).`
  return `Cannot reach the model server at ${baseUrl} (${code}).`
}

/**
 * The same, as the message code the UI translates (docs/architecture.md, "Texts from main"). A
 * refused connection says it in words — nothing listens on that host and port (issue 22, item 9).
 */
export function unreachableText(baseUrl: string, code: string): ErrorText {
  const host = hostOf(baseUrl)
  if (code === 'ECONNREFUSED' && host) return { key: 'errors.model.refused', params: { url: baseUrl, host, reason: code } }
  const key = CONNECTION_LOST_CODES.has(code) ? 'errors.model.connectionLost' : 'errors.model.unreachable'
  return { key, params: { url: baseUrl, reason: code } }
}

/** "127.0.0.1:11434" — the host and the port a connection went to (the scheme's default port when the URL names none). */
function hostOf(baseUrl: string): string | undefined {
  try {
    const url = new URL(baseUrl)
    const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '')
    return port ? `${url.hostname}:${port}` : url.hostname
  } catch {
    return undefined
  }
}

/** An unreachable model server as an AppError: the English message and its message code. */
export function unreachableError(baseUrl: string, code: string): AppError {
  return new AppError('MODEL_UNREACHABLE', unreachableMessage(baseUrl, code), unreachableText(baseUrl, code))
}
