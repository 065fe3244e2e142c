import type { createAnthropic } from '@ai-sdk/anthropic'
import type { createOpenAI } from '@ai-sdk/openai'
import { AppError } from '../../shared'
import { apiKeyEnvFor, baseUrlOf, defaultModelFor, nonEmpty, type ProviderConfig } from './config'
import { coalescingFetch } from './coalesced-arguments'
import type { ModelClient } from './model-client'
import { FAIL_FAST_NETWORK_CODES, networkErrorCode, unreachableError } from './network-error'
import { OpenAIChatClient } from './openai-chat-client'
import { SdkModelClient } from './sdk-model-client'

/**
 * Only the provider a run uses is loaded, when its first turn streams, not with the app
 * (docs/benchmarks.md, "CLI start-up").
 */
/* eslint-disable @typescript-eslint/no-require-imports -- loaded late, on purpose */
const providers = {
  openai: (): typeof createOpenAI => (require('@ai-sdk/openai') as typeof import('@ai-sdk/openai')).createOpenAI,
  anthropic: (): typeof createAnthropic => (require('@ai-sdk/anthropic') as typeof import('@ai-sdk/anthropic')).createAnthropic
}
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The model client for a config (docs/architecture.md, "Model clients"): OpenAI-compatible servers
 * spoken to directly, OpenAI and Anthropic through their AI SDK providers. Throws
 * AppError('NOT_CONFIGURED') saying what to set when the model, the key (openai, anthropic) or the
 * base URL (openai-compatible) is missing; loads nothing until the first turn.
 */
export function createModelClient(config: ProviderConfig): ModelClient {
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

  switch (config.provider) {
    case 'openai': {
      const key = requireKey(config, apiKey)
      // .chat(): Chat Completions, which every OpenAI-compatible server speaks (the default is Responses).
      return new SdkModelClient('openai.chat', model, () => providers.openai()({ baseURL, apiKey: key, fetch: coalescingFetch(failFastFetch(baseURL)) }).chat(model))
    }
    case 'anthropic': {
      const key = requireKey(config, apiKey)
      return new SdkModelClient('anthropic.messages', model, () => providers.anthropic()({ baseURL, apiKey: key, fetch: coalescingFetch(failFastFetch(baseURL)) })(model))
    }
    case 'openai-compatible':
      if (!nonEmpty(config.baseUrl)) {
        throw new AppError(
          'NOT_CONFIGURED',
          'No base URL set for the OpenAI-compatible server: set one with --base-url or in Settings (e.g. http://localhost:11434/v1 for Ollama).',
          { key: 'errors.notConfigured.baseUrl' }
        )
      }
      return new OpenAIChatClient({ baseURL, apiKey, model, fetch: failFastFetch(baseURL) })
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
 * Nothing listening or no such host will not change in the seconds the retries wait
 * (2 s + 4 s + 8 s), so say so at once. Throwing a non-network error keeps it from being wrapped as
 * a retryable APICallError; other failures (resets, timeouts) go through unchanged and are retried.
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
