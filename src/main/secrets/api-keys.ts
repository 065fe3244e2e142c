import { ApiKeySchema, errorMessage, ProviderKindSchema, type ProviderKind, type SecretsStatus } from '../../shared'
import { SecretStoreError, type SecretStore } from './types'

const PROVIDERS = ProviderKindSchema.options

/** The name a provider's key is stored under. */
export function apiKeySecretName(provider: ProviderKind): string {
  return `api-key.${provider}`
}

/** The name a saved provider's key is stored under: its own, so no other saved provider reads it. */
export function savedProviderKeySecretName(savedProviderId: string): string {
  return `api-key.saved.${savedProviderId}`
}

/** Whose key: a provider kind's, or one saved provider's (Settings.savedProviders). */
export interface KeyOwner {
  provider: ProviderKind
  savedProviderId?: string
}

function secretNameOf(owner: ProviderKind | KeyOwner): string {
  if (typeof owner === 'string') return apiKeySecretName(owner)
  return owner.savedProviderId ? savedProviderKeySecretName(owner.savedProviderId) : apiKeySecretName(owner.provider)
}

/**
 * API keys in a SecretStore, by provider: what the settings bridge calls and the model calls use.
 * Status says whether a key is stored, never what it is.
 */
export class ApiKeys {
  /** `savedProviderIds`: the saved providers status reports on (Settings.savedProviders). */
  constructor(
    readonly store: SecretStore,
    private readonly savedProviderIds: () => readonly string[] = () => []
  ) {}

  status(): SecretsStatus {
    const state = this.store.available()
    const providers = { openai: false, anthropic: false, 'openai-compatible': false }
    const savedIds = this.savedProviderIds()
    const saved: Record<string, boolean> = {}
    let problem: string | undefined
    try {
      for (const provider of PROVIDERS) providers[provider] = this.store.has(apiKeySecretName(provider))
      for (const id of savedIds) saved[id] = this.store.has(savedProviderKeySecretName(id))
    } catch (error) {
      problem = errorMessage(error)
    }
    return {
      available: state.ok,
      ...(state.ok ? {} : { why: state.why, reason: state.reason }),
      ...(problem ? { problem } : {}),
      providers,
      ...(savedIds.length > 0 ? { saved } : {})
    }
  }

  /** Validates (trimmed, non-empty, printable, length-limited), encrypts and stores. */
  set(owner: ProviderKind | KeyOwner, key: string): SecretsStatus {
    const parsed = ApiKeySchema.safeParse(key)
    // The issue's own message, never the input.
    if (!parsed.success) throw new SecretStoreError('invalid', parsed.error.issues[0]?.message ?? 'That is not an API key.')
    this.store.set(secretNameOf(owner), parsed.data)
    return this.status()
  }

  delete(owner: ProviderKind | KeyOwner): SecretsStatus {
    this.store.delete(secretNameOf(owner))
    return this.status()
  }

  /** The stored key (main only); undefined when none. Throws SecretStoreError when one is stored but unreadable. */
  stored(owner: ProviderKind | KeyOwner): string | undefined {
    return this.store.get(secretNameOf(owner))
  }
}
