import { contextWindowOf, listedModelWindow, type ContextWindow, type ProviderConfig } from '../providers'

/** A server's answer about a model's window is kept this long: a local server may load the model again with another. */
export const LISTED_WINDOW_TTL_MS = 5 * 60_000

/**
 * The context window runs plan with (docs/architecture.md, "Context window"): the `contextWindow`
 * setting when set; else what the server's model list says about the model — asked once per server
 * and model and kept for a few minutes, so a run does not wait for it again — else the provider's
 * default. Never fails: a server that cannot be asked gives the default. The question goes out after
 * the caller's turn, so a run's first event is not behind it.
 */
export class ContextWindows {
  private readonly listed = new Map<string, { at: number; tokens: Promise<number | undefined> }>()

  constructor(private readonly now: () => number = Date.now) {}

  of(config: ProviderConfig, setting: number): Promise<ContextWindow> {
    if (setting > 0) return Promise.resolve(contextWindowOf({ setting, provider: config.provider }))
    const key = JSON.stringify([config.provider, config.baseUrl, config.apiKeyEnv, config.model])
    let entry = this.listed.get(key)
    if (!entry || this.now() - entry.at > LISTED_WINDOW_TTL_MS) {
      // Asked from the next turn of the event loop: a run shows it started first, and in the CLI
      // loading fetch and opening the request cost ~30 ms before that (docs/benchmarks.md, "CLI start-up").
      const asked = new Promise<void>((resolve) => setImmediate(resolve)).then(() => listedModelWindow(config, config.model))
      entry = { at: this.now(), tokens: asked.catch(() => undefined) }
      this.listed.set(key, entry)
    }
    return entry.tokens.then((listed) => contextWindowOf({ setting, listed, provider: config.provider }))
  }
}
