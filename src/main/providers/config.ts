import { CONVENTIONAL_API_KEY_ENV, modelKeyEnvOf, type ProviderKind } from '../../shared'

export { CONVENTIONAL_API_KEY_ENV }

/** What one model call needs; the caller resolves the key from its environment variable. */
export interface ProviderConfig {
  provider: ProviderKind
  model: string
  /** Empty or missing: the provider's default (required for openai-compatible). */
  baseUrl?: string
  apiKey?: string
  /** Name of the variable the key came from; only used to say what to set. */
  apiKeyEnv?: string
}

export const DEFAULT_BASE_URLS: Readonly<Record<ProviderKind, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  'openai-compatible': 'http://localhost:11434/v1'
}

/** Suggestions for the settings form; users pick whatever their account or server has. */
const DEFAULT_MODELS: Readonly<Record<ProviderKind, string>> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-5',
  'openai-compatible': 'qwen3:8b'
}

/**
 * Passed to the model client as `maxRetries` (providers/model-retries.ts, or streamText for the SDK providers): up to 3 retries (4 attempts) of a model call that failed
 * with 408/409/429/5xx or a dropped connection, 2 s → 4 s → 8 s apart unless the server sends
 * `retry-after-ms` / `retry-after` (then that, if under 60 s). Only the request is retried, never
 * a stream that already started.
 */
export const MODEL_MAX_RETRIES = 3

/** The variable that holds the key: the one the user named, else the provider's conventional one. */
export function apiKeyEnvFor(config: { provider: ProviderKind; apiKeyEnv?: string }): string {
  return modelKeyEnvOf(config)
}

export function defaultModelFor(provider: ProviderKind): string {
  return DEFAULT_MODELS[provider]
}

/** The base URL a config actually talks to. */
export function baseUrlOf(config: Pick<ProviderConfig, 'provider' | 'baseUrl'>): string {
  return nonEmpty(config.baseUrl) ?? DEFAULT_BASE_URLS[config.provider]
}

export function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed ? trimmed : undefined
}
