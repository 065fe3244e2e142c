import { ApiKeySchema, errorMessage, ProviderKindSchema, type ProviderKind, type SecretsStatus } from '../../shared'
import { SecretStoreError, type SecretStore } from './types'

const PROVIDERS = ProviderKindSchema.options

/** The name a provider's key is stored under. */
export function apiKeySecretName(provider: ProviderKind): string {
  return `api-key.${provider}`
}

/**
 * API keys in a SecretStore, by provider: what the settings bridge calls and the model calls use.
 * Status says whether a key is stored, never what it is.
 */
export class ApiKeys {
  constructor(readonly store: SecretStore) {}

  status(): SecretsStatus {
    const state = this.store.available()
    const providers = { openai: false, anthropic: false, 'openai-compatible': false }
    let problem: string | undefined
    try {
      for (const provider of PROVIDERS) providers[provider] = this.store.has(apiKeySecretName(provider))
    } catch (error) {
      problem = errorMessage(error)
    }
    return {
      available: state.ok,
      ...(state.ok ? {} : { why: state.why, reason: state.reason }),
      ...(problem ? { problem } : {}),
      providers
    }
  }

  /** Validates (trimmed, non-empty, printable, length-limited), encrypts and stores. */
  set(provider: ProviderKind, key: string): SecretsStatus {
    const parsed = ApiKeySchema.safeParse(key)
    // The issue's own message, never the input.
    if (!parsed.success) throw new SecretStoreError('invalid', parsed.error.issues[0]?.message ?? 'That is not an API key.')
    this.store.set(apiKeySecretName(provider), parsed.data)
    return this.status()
  }

  delete(provider: ProviderKind): SecretsStatus {
    this.store.delete(apiKeySecretName(provider))
    return this.status()
  }

  /** The stored key (main only); undefined when none. Throws SecretStoreError when one is stored but unreadable. */
  stored(provider: ProviderKind): string | undefined {
    return this.store.get(apiKeySecretName(provider))
  }
}
