import type { createAnthropic } from '@ai-sdk/anthropic'
import type { createOpenAI } from '@ai-sdk/openai'
import type { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModel } from 'ai'
import { AppError } from '../../shared'
import { apiKeyEnvFor, baseUrlOf, defaultModelFor, nonEmpty, type ProviderConfig } from './config'
import { coalescingFetch } from './coalesced-arguments'
import { FAIL_FAST_NETWORK_CODES, networkErrorCode, unreachableError } from './network-error'

/**
 * Only the provider a run uses is loaded, when its first model is made, not with the app
 * (docs/benchmarks.md, "CLI start-up"); the call stays synchronous.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- loaded late, on purpose */
const providers = {
  openai: (): typeof createOpenAI => (require('@ai-sdk/openai') as typeof import('@ai-sdk/openai')).createOpenAI,
  anthropic: (): typeof createAnthropic => (require('@ai-sdk/anthropic') as typeof import('@ai-sdk/anthropic')).createAnthropic,
  openaiCompatible: (): typeof createOpenAICompatible =>
    (require('@ai-sdk/openai-compatible') as typeof import('@ai-sdk/openai-compatible')).createOpenAICompatible
}
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The AI SDK model for a config. Throws AppError('NOT_CONFIGURED') saying what to set when the
 * model, the key (openai, anthropic) or the base URL (openai-compatible) is missing.
 */
export function createLanguageModel(config: ProviderConfig): LanguageModel {
  const model = nonEmpty(config.model)
  if (!model) {
    const example = defaultModelFor(config.provider)
    throw new AppError('NOT_CONFIGURED', `No model set for ${config.provider}: set one with --model or in Settings (e.g. ${example}).`, {
      key: 'errors.notConfigured.model',
      params: { provider: config.provider, example }
    })
  }
  const apiKey = nonEmpty(config.apiKey)
  const baseURL = baseUrlOf(config)
  const fetch = coalescingFetch(failFastFetch(baseURL))

  switch (config.provider) {
    case 'openai':
      // .chat(): Chat Completions, which every OpenAI-compatible server speaks (the default is Responses).
      return providers.openai()({ baseURL, apiKey: requireKey(config, apiKey), fetch }).chat(model)
    case 'anthropic':
      return providers.anthropic()({ baseURL, apiKey: requireKey(config, apiKey), fetch })(model)
    case 'openai-compatible':
      if (!nonEmpty(config.baseUrl)) {
        throw new AppError(
          'NOT_CONFIGURED',
          'No base URL set for the OpenAI-compatible server: set one with --base-url or in Settings (e.g. http://localhost:11434/v1 for Ollama).',
          { key: 'errors.notConfigured.baseUrl' }
        )
      }
      // includeUsage: without it these servers send no token counts in streams.
      return providers.openaiCompatible()({ name: 'openai-compatible', baseURL, apiKey, includeUsage: true, fetch })(model)
  }
}

function requireKey(config: ProviderConfig, apiKey: string | undefined): string {
  if (apiKey) return apiKey
  throw missingKeyError(config)
}

/** What to set when a provider that needs a key has none (also used when listing its models). */
export function missingKeyError(config: Pick<ProviderConfig, 'provider' | 'apiKeyEnv'>): AppError {
  const variable = apiKeyEnvFor(config)
  return new AppError(
    'NOT_CONFIGURED',
    `No API key for ${config.provider}: paste one in Settings (the desktop app keeps it encrypted), ` +
      `or set ${variable} in the environment (or name another variable with --api-key-env or in Settings).`,
    { key: 'errors.notConfigured.apiKey', params: { provider: config.provider, variable } }
  )
}

/**
 * Nothing listening or no such host will not change in the seconds the SDK's retries wait
 * (2 s + 4 s + 8 s), so say so at once. Throwing a non-network error keeps the SDK from wrapping
 * it as a retryable APICallError; other failures (resets, timeouts) go through unchanged and are
 * retried.
 */
function failFastFetch(baseUrl: string): typeof globalThis.fetch {
  return async (input, init) => {
    try {
      return await globalThis.fetch(input, init)
    } catch (error) {
      const code = networkErrorCode(error)
      if (code !== undefined && FAIL_FAST_NETWORK_CODES.has(code)) {
        throw unreachableError(baseUrl, code)
      }
      throw error
    }
  }
}
