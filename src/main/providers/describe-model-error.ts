import { APICallError, LoadAPIKeyError } from '@ai-sdk/provider'
import { AppError, errorMessage, errorTextFields, type AppErrorShape, type ErrorText } from '../../shared'
import { redactSecrets } from '../secrets/redact'
import { apiKeyEnvFor, baseUrlOf, type ProviderConfig } from './config'
import { networkErrorCode, unreachableMessage, unreachableText } from './network-error'

const MAX_SERVER_MESSAGE = 300

/**
 * One line, no stack, for whatever a model call threw or streamed as an `error` part: the SDK's
 * APICallError (HTTP status, server message), a RetryError around the last attempt, a network
 * failure, an abort. The code lets the UI translate; the message names what to check. The key
 * the call was made with never appears in it: some servers echo it in their error body, and an
 * invalid header value is quoted in fetch's own error.
 */
export function describeModelError(error: unknown, config: ProviderConfig): AppErrorShape {
  const described = describe(error, config)
  const redact = (text: string) => redactSecrets(text, [config.apiKey])
  const params = described.params
    ? Object.fromEntries(Object.entries(described.params).map(([name, value]) => [name, typeof value === 'string' ? redact(value) : value]))
    : undefined
  return { ...described, message: redact(described.message), ...(params ? { params } : {}) }
}

/** An error shape with its message code (the UI translates `key`; `message` stays the English line). */
function shaped(code: AppErrorShape['code'], message: string, text: ErrorText): AppErrorShape {
  return { code, message, ...errorTextFields(text) }
}

function describe(error: unknown, config: ProviderConfig): AppErrorShape {
  const retried = retryOf(error)
  const attempts = retried ? retried.errors.length : 1
  const last = retried ? retried.lastError : error
  const baseUrl = baseUrlOf(config)

  if (last instanceof AppError) return last.toJSON()
  if (isAbort(last)) return shaped('CANCELLED', 'The model call was cancelled.', { key: 'errors.model.cancelled' })
  if (isTimeout(last)) {
    return shaped('MODEL_UNREACHABLE', `The model server at ${baseUrl} did not answer in time.`, { key: 'errors.model.timeout', params: { url: baseUrl } })
  }
  if (LoadAPIKeyError.isInstance(last)) {
    return shaped('NOT_CONFIGURED', `No API key for ${config.provider}: ${oneLine(last.message)}`, {
      key: 'errors.notConfigured.apiKey',
      params: { provider: config.provider, variable: apiKeyEnvFor(config) }
    })
  }
  if (APICallError.isInstance(last) && last.statusCode !== undefined && last.statusCode >= 400) {
    return describeStatus(last.statusCode, serverMessage(last, config.apiKey), config, attempts)
  }
  // Also a stream that broke after a 200: the SDK reports it as an APICallError with status 200.
  const network = networkErrorCode(last)
  if (network !== undefined) return shaped('MODEL_UNREACHABLE', unreachableMessage(baseUrl, network), unreachableText(baseUrl, network))
  if (APICallError.isInstance(last) && last.statusCode === undefined) {
    const reason = last.cause instanceof Error ? oneLine(last.cause.message) : serverMessage(last, config.apiKey)
    return shaped('MODEL_UNREACHABLE', unreachableMessage(baseUrl, reason), unreachableText(baseUrl, reason))
  }
  if (APICallError.isInstance(last)) {
    const detail = serverMessage(last, config.apiKey)
    return shaped('MODEL_ERROR', `The model server sent a response that could not be read: ${detail}`, { key: 'errors.model.unreadable', params: { detail } })
  }
  const detail = oneLine(errorMessage(last))
  return shaped('MODEL_ERROR', `The model call failed: ${detail}`, { key: 'errors.model.failed', params: { detail } })
}

function describeStatus(status: number, server: string, config: ProviderConfig, attempts: number): AppErrorShape {
  const detail = server ? `: ${server}` : ''
  const tries = attempts > 1 ? `, ${attempts} attempts` : ''
  // `detail` in params: the server's own words, shown untranslated after the sentence.
  const said: Record<string, string> = server ? { detail: server } : {}
  if (status === 401 || status === 403) {
    return shaped('MODEL_AUTH', `The model server rejected the API key (${status})${detail}`, { key: 'errors.model.auth', params: { status, ...said } })
  }
  if (status === 404) {
    const url = baseUrlOf(config)
    return shaped('MODEL_NOT_FOUND', `Model "${config.model}" not found at ${url} (404); check the model name and the base URL${detail}`, {
      key: 'errors.model.notFound',
      params: { model: config.model, url, ...said }
    })
  }
  if (status === 429) {
    return shaped('MODEL_RATE_LIMITED', `The model server is rate-limiting requests (429${tries})${detail}`, {
      key: attempts > 1 ? 'errors.model.rateLimitedRetried' : 'errors.model.rateLimited',
      params: { attempts, ...said }
    })
  }
  return shaped('MODEL_ERROR', `The model server answered ${status}${tries}${detail}`, { key: 'errors.model.status', params: { status, ...said } })
}

/** The provider's own error text (the SDK puts it in `message`; falls back to the status text), the key redacted before it is cut short. */
function serverMessage(error: APICallError, apiKey: string | undefined): string {
  const text = redactSecrets(oneLine(error.message), [apiKey])
  return text.length > MAX_SERVER_MESSAGE ? `${text.slice(0, MAX_SERVER_MESSAGE - 1)}…` : text
}

/**
 * The retries that gave up: the AI SDK's RetryError or ours (ModelRetryError), both marked the
 * SDK's way — checked by the mark, so describing an error never loads the SDK.
 */
function retryOf(error: unknown): { errors: unknown[]; lastError: unknown } | null {
  if (typeof error !== 'object' || error === null || (error as Record<symbol, unknown>)[RETRY_MARK] !== true) return null
  const { errors, lastError } = error as { errors?: unknown; lastError?: unknown }
  return Array.isArray(errors) ? { errors, lastError } : null
}

const RETRY_MARK = Symbol.for('vercel.ai.error.AI_RetryError')

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function isAbort(error: unknown): boolean {
  return (error instanceof Error || error instanceof DOMException) && error.name === 'AbortError'
}

function isTimeout(error: unknown): boolean {
  return (error instanceof Error || error instanceof DOMException) && error.name === 'TimeoutError'
}
