import { createModelClient, type ModelClient, type ProviderConfig } from '../providers'

/**
 * The model client for the provider settings in use, made once per settings change rather than per
 * run: an AI SDK provider builds its request and stream schemas when it is made, which cost about as
 * much as a whole tool round trip on loopback (docs/benchmarks.md, "Agent loop").
 * One entry per distinct config (a conversation may have its own model); a config no longer asked
 * for is dropped when another takes its place, so the cache never outgrows a few entries.
 */
export class LanguageModels {
  private readonly models = new Map<string, ModelClient>()

  constructor(private readonly limit = 4) {}

  get(config: ProviderConfig): ModelClient {
    const key = JSON.stringify([config.provider, config.model, config.baseUrl, config.apiKey, config.apiKeyEnv])
    let model = this.models.get(key)
    if (model) {
      // Most recently used last, so the oldest is the one dropped.
      this.models.delete(key)
    } else {
      model = createModelClient(config) // throws NOT_CONFIGURED with what to set
    }
    this.models.set(key, model)
    if (this.models.size > this.limit) this.models.delete(this.models.keys().next().value!)
    return model
  }
}
