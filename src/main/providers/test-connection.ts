import { AppError, type TestConnectionResult } from '../../shared'
import type { ProviderConfig } from './config'
import { createModelClient } from './create-model-client'
import { describeModelError } from './describe-model-error'
import { listModels } from './list-models'

export interface TestConnectionOptions {
  /** A cold local model may take a while to load; past this the server counts as not answering. */
  timeoutMs?: number
  signal?: AbortSignal
}

const DEFAULT_TIMEOUT_MS = 30_000

/**
 * One tiny real request — a one-token generation — through the same client a run would build, so a
 * failure is reported with exactly the words a run would show (describeModelError); without a model,
 * the model list (`checked: 'models'`). Never throws.
 */
export async function testConnection(config: ProviderConfig, options: TestConnectionOptions = {}): Promise<TestConnectionResult> {
  // No model chosen yet: ask for the model list instead, which reaches the server and (where the
  // provider wants one) checks the key — and the answer says that is what was checked (issue 22, item 9).
  if (config.model.trim() === '') return testByListing(config, options)
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const abortSignal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  const started = performance.now()
  try {
    const client = createModelClient(config) // NOT_CONFIGURED says what to set
    await client.streamTurn({
      system: '',
      messages: [{ role: 'user', content: 'Reply with one word: ok' }],
      tools: [],
      maxOutputTokens: 1,
      // A retry would only hide what the user needs to see, and make the button wait 14 s.
      maxRetries: 0,
      signal: abortSignal,
      onPart: () => {}
    })
    return { ok: true, checked: 'reply', model: config.model.trim(), latencyMs: Math.round(performance.now() - started) }
  } catch (error) {
    return { ok: false, error: describeModelError(error, config) }
  }
}

async function testByListing(config: ProviderConfig, options: TestConnectionOptions): Promise<TestConnectionResult> {
  const started = performance.now()
  try {
    const models = await listModels(config, { ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}), ...(options.signal ? { signal: options.signal } : {}) })
    return { ok: true, checked: 'models', model: '', models: models.length, latencyMs: Math.round(performance.now() - started) }
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: error.toJSON() }
    return { ok: false, error: describeModelError(error, config) }
  }
}
