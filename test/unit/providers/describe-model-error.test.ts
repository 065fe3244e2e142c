import { APICallError, RetryError } from 'ai'
import { describe, expect, it } from 'vitest'
import { AppError } from '../../../src/shared'
import { describeModelError, type ProviderConfig } from '../../../src/main/providers'
import { ModelRetryError } from '../../../src/main/providers/model-retries'

const config: ProviderConfig = { provider: 'openai-compatible', model: 'qwen3:8b', baseUrl: 'http://localhost:11434/v1' }

function apiError(statusCode: number | undefined, message: string, cause?: unknown): APICallError {
  return new APICallError({
    message,
    url: 'http://localhost:11434/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    cause
  })
}

function fetchFailed(code: string | undefined, message: string): TypeError {
  const cause = Object.assign(new Error(message), code === undefined ? {} : { code })
  return new TypeError('fetch failed', { cause })
}

describe('describeModelError', () => {
  it('counts the attempts of the wire client’s retries as of the SDK’s', () => {
    const retried = new ModelRetryError([apiError(429, 'Slow down'), apiError(429, 'Slow down'), apiError(429, 'Slow down')])
    expect(describeModelError(retried, config)).toMatchObject({
      code: 'MODEL_RATE_LIMITED',
      message: 'The model server is rate-limiting requests (429, 3 attempts): Slow down',
      key: 'errors.model.rateLimitedRetried',
      params: { attempts: 3 }
    })
  })

  it('maps HTTP statuses to codes with the server message on one line', () => {
    expect(describeModelError(apiError(401, 'Incorrect API key\nprovided.'), config)).toEqual({
      code: 'MODEL_AUTH',
      message: 'The model server rejected the API key (401): Incorrect API key provided.',
      key: 'errors.model.auth',
      params: { status: 401, detail: 'Incorrect API key provided.' }
    })
    expect(describeModelError(apiError(403, 'Forbidden'), config).code).toBe('MODEL_AUTH')
    expect(describeModelError(apiError(404, 'model "qwen3:8b" not found, try pulling it first'), config)).toEqual({
      code: 'MODEL_NOT_FOUND',
      message:
        'Model "qwen3:8b" not found at http://localhost:11434/v1 (404); check the model name and the base URL: model "qwen3:8b" not found, try pulling it first',
      key: 'errors.model.notFound',
      params: { model: 'qwen3:8b', url: 'http://localhost:11434/v1', detail: 'model "qwen3:8b" not found, try pulling it first' }
    })
    expect(describeModelError(apiError(429, 'Slow down'), config).code).toBe('MODEL_RATE_LIMITED')
    expect(describeModelError(apiError(502, 'Bad Gateway'), config)).toEqual({
      code: 'MODEL_ERROR',
      message: 'The model server answered 502: Bad Gateway',
      key: 'errors.model.status',
      params: { status: 502, detail: 'Bad Gateway' }
    })
  })

  it('unwraps a RetryError to its last attempt and says how many there were', () => {
    const errors = [apiError(503, 'overloaded'), apiError(503, 'overloaded'), apiError(503, 'still overloaded')]
    const retry = new RetryError({ message: 'Failed after 3 attempts', reason: 'maxRetriesExceeded', errors })
    expect(describeModelError(retry, config)).toEqual({
      code: 'MODEL_ERROR',
      message: 'The model server answered 503, 3 attempts: still overloaded',
      key: 'errors.model.status',
      params: { status: 503, detail: 'still overloaded' }
    })
  })

  it('names the base URL and the network reason when the server cannot be reached', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT']) {
      const wrapped = apiError(undefined, `Cannot connect to API: ${code}`, fetchFailed(code, `connect ${code}`))
      expect(describeModelError(wrapped, config)).toEqual({
        code: 'MODEL_UNREACHABLE',
        message: `Cannot reach the model server at http://localhost:11434/v1 (${code}).`,
        // A refused connection is said in words: nothing listens on that host and port (issue 22, item 9).
        ...(code === 'ECONNREFUSED'
          ? { key: 'errors.model.refused', params: { url: 'http://localhost:11434/v1', host: 'localhost:11434', reason: code } }
          : { key: 'errors.model.unreachable', params: { url: 'http://localhost:11434/v1', reason: code } })
      })
      // The bare fetch error, as a custom fetch or another library would throw it.
      expect(describeModelError(fetchFailed(code, 'x'), config).code).toBe('MODEL_UNREACHABLE')
    }
  })

  it('finds the code inside an AggregateError (IPv4 and IPv6 both refused)', () => {
    const aggregate = new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:11434'), { code: 'ECONNREFUSED' })], '')
    const error = new TypeError('fetch failed', { cause: aggregate })
    expect(describeModelError(error, config).message).toBe(
      'Cannot reach the model server at http://localhost:11434/v1 (ECONNREFUSED).'
    )
  })

  it('uses the provider default base URL when none is configured', () => {
    const error = apiError(undefined, 'Cannot connect to API', fetchFailed('ENOTFOUND', 'getaddrinfo ENOTFOUND'))
    expect(describeModelError(error, { provider: 'anthropic', model: 'claude-sonnet-4-5' }).message).toBe(
      'Cannot reach the model server at https://api.anthropic.com/v1 (ENOTFOUND).'
    )
  })

  it('reports an abort as CANCELLED and a timeout as unreachable', () => {
    expect(describeModelError(new DOMException('This operation was aborted', 'AbortError'), config).code).toBe('CANCELLED')
    expect(describeModelError(new DOMException('The operation timed out.', 'TimeoutError'), config)).toEqual({
      code: 'MODEL_UNREACHABLE',
      message: 'The model server at http://localhost:11434/v1 did not answer in time.',
      key: 'errors.model.timeout',
      params: { url: 'http://localhost:11434/v1' }
    })
  })

  it('passes an AppError through', () => {
    expect(describeModelError(new AppError('NOT_CONFIGURED', 'Set a model.'), config)).toEqual({
      code: 'NOT_CONFIGURED',
      message: 'Set a model.'
    })
  })

  it('keeps anything else to one line without a stack', () => {
    const error = new Error('Something odd\n    at foo (file.js:1:2)')
    expect(describeModelError(error, config)).toEqual({
      code: 'MODEL_ERROR',
      message: 'The model call failed: Something odd',
      key: 'errors.model.failed',
      params: { detail: 'Something odd' }
    })
    expect(describeModelError('a string', config)).toMatchObject({ code: 'MODEL_ERROR', message: 'The model call failed: a string' })
  })

  it('caps a very long server message', () => {
    const described = describeModelError(apiError(500, 'x'.repeat(5000)), config)
    expect(described.message.length).toBeLessThan(400)
  })
})
