import { APICallError, LoadAPIKeyError, RetryError } from 'ai'
import { AppError, errorMessage, type AppErrorShape } from '../../shared'
import { redactSecrets } from '../secrets/redact'
import { baseUrlOf, type ProviderConfig } from './config'
import { networkErrorCode, unreachableMessage } from './network-error'

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
  return { ...described, message: redactSecrets(described.message, [config.apiKey]) }
}

function describe(error: unknown, config: ProviderConfig): AppErrorShape {
  const attempts = RetryError.isInstance(error) ? error.errors.length : 1
  const last = RetryError.isInstance(error) ? error.lastError : error
  const baseUrl = baseUrlOf(config)

  if (last instanceof AppError) return last.toJSON()
  if (isAbort(last)) return { code: 'CANCELLED', message: 'The model call was cancelled.' }
  if (isTimeout(last)) {
    return { code: 'MODEL_UNREACHABLE', message: `The model server at ${baseUrl} did not answer in time.` }
  }
  if (LoadAPIKeyError.isInstance(last)) {
    return { code: 'NOT_CONFIGURED', message: `No API key for ${config.provider}: ${oneLine(last.message)}` }
  }
  if (APICallError.isInstance(last) && last.statusCode !== undefined && last.statusCode >= 400) {
    return describeStatus(last.statusCode, serverMessage(last, config.apiKey), config, attempts)
  }
  // Also a stream that broke after a 200: the SDK reports it as an APICallError with status 200.
  const network = networkErrorCode(last)
  if (network !== undefined) return { code: 'MODEL_UNREACHABLE', message: unreachableMessage(baseUrl, network) }
  if (APICallError.isInstance(last) && last.statusCode === undefined) {
    const reason = last.cause instanceof Error ? oneLine(last.cause.message) : serverMessage(last, config.apiKey)
    return { code: 'MODEL_UNREACHABLE', message: unreachableMessage(baseUrl, reason) }
  }
  if (APICallError.isInstance(last)) {
    return { code: 'MODEL_ERROR', message: `The model server sent a response that could not be read: ${serverMessage(last, config.apiKey)}` }
  }
  return { code: 'MODEL_ERROR', message: `The model call failed: ${oneLine(errorMessage(last))}` }
}

function describeStatus(status: number, server: string, config: ProviderConfig, attempts: number): AppErrorShape {
  const detail = server ? `: ${server}` : ''
  const tries = attempts > 1 ? `, ${attempts} attempts` : ''
  if (status === 401 || status === 403) {
    return { code: 'MODEL_AUTH', message: `The model server rejected the API key (${status})${detail}` }
  }
  if (status === 404) {
    return {
      code: 'MODEL_NOT_FOUND',
      message: `Model "${config.model}" not found at ${baseUrlOf(config)} (404); check the model name and the base URL${detail}`
    }
  }
  if (status === 429) {
    return { code: 'MODEL_RATE_LIMITED', message: `The model server is rate-limiting requests (429${tries})${detail}` }
  }
  return { code: 'MODEL_ERROR', message: `The model server answered ${status}${tries}${detail}` }
}

/** The provider's own error text (the SDK puts it in `message`; falls back to the status text), the key redacted before it is cut short. */
function serverMessage(error: APICallError, apiKey: string | undefined): string {
  const text = redactSecrets(oneLine(error.message), [apiKey])
  return text.length > MAX_SERVER_MESSAGE ? `${text.slice(0, MAX_SERVER_MESSAGE - 1)}…` : text
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function isAbort(error: unknown): boolean {
  return (error instanceof Error || error instanceof DOMException) && error.name === 'AbortError'
}

function isTimeout(error: unknown): boolean {
  return (error instanceof Error || error instanceof DOMException) && error.name === 'TimeoutError'
}
