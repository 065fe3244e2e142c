import type { ContextWindowSource, ProviderKind } from '../../shared'

/** How many tokens a model reads at once, and who said so (docs/architecture.md, "Context window"). */
export interface ContextWindow {
  tokens: number
  source: ContextWindowSource
}

/**
 * Used when neither the setting nor the server's model list names the window. Hosted OpenAI and
 * Anthropic chat models all read at least this much. An OpenAI-compatible server that names none
 * is mostly a hosted API (DeepSeek, DashScope, Moonshot: 32k and more); the local servers that run
 * small windows name theirs (LM Studio, vLLM, Ollama's /api/show), and a server that refuses a
 * request as too long is compacted and retried with the window its error states
 * (docs/architecture.md, "Compaction"). So 32,768 there: not so small that every such model gets
 * compact tool descriptions and a summary every few steps.
 */
export const DEFAULT_CONTEXT_WINDOWS: Readonly<Record<ProviderKind, number>> = {
  openai: 128_000,
  anthropic: 200_000,
  'openai-compatible': 32_768
}

/** Anything smaller is not a window a chat model runs with: a field that means something else. */
const MIN_LISTED_WINDOW = 256
const MAX_LISTED_WINDOW = 100_000_000

/**
 * The window a run plans with: the `contextWindow` setting when set (not 0), else what the
 * server's model list says about this model, else the provider's default.
 */
export function contextWindowOf(input: { setting: number; listed?: number; provider: ProviderKind }): ContextWindow {
  if (input.setting > 0) return { tokens: input.setting, source: 'setting' }
  if (input.listed !== undefined && isWindow(input.listed)) return { tokens: input.listed, source: 'model-list' }
  return { tokens: DEFAULT_CONTEXT_WINDOWS[input.provider], source: 'default' }
}

/**
 * The window one entry of a `/models` answer names, under the field its server uses, in this order:
 * LM Studio's `loaded_context_length` (what is loaded now) before its `max_context_length`; vLLM's
 * `max_model_len` (what the server was started with); OpenRouter, Together and others'
 * `context_length` (also OpenRouter's `top_provider.context_length`); Groq's `context_window`;
 * Anthropic's `max_input_tokens`.
 */
export function listedContextWindow(entry: unknown): number | undefined {
  if (entry === null || typeof entry !== 'object') return undefined
  const fields = entry as Record<string, unknown>
  const topProvider = fields.top_provider as Record<string, unknown> | null | undefined
  const candidates = [
    fields.loaded_context_length,
    fields.max_model_len,
    fields.context_length,
    fields.context_window,
    fields.max_context_length,
    fields.max_input_tokens,
    typeof topProvider === 'object' && topProvider !== null ? topProvider.context_length : undefined
  ]
  return candidates.find(isWindow)
}

/**
 * The window Ollama serves a model with, from its `POST /api/show` answer: `num_ctx` when the model
 * sets one; otherwise Ollama runs it with its own default (OLLAMA_CONTEXT_LENGTH, at least 4096),
 * which is no larger than the model's trained length either, so the smaller of 4096 and that.
 */
export function ollamaContextWindow(show: unknown): number | undefined {
  if (show === null || typeof show !== 'object') return undefined
  const { parameters, model_info: info } = show as { parameters?: unknown; model_info?: unknown }
  if (typeof parameters === 'string') {
    const numCtx = /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(parameters)
    if (numCtx && isWindow(Number(numCtx[1]))) return Number(numCtx[1])
  }
  if (info === null || typeof info !== 'object') return undefined
  const trained = Object.entries(info as Record<string, unknown>).find(([key, value]) => key.endsWith('.context_length') && isWindow(value))
  return trained ? Math.min(OLLAMA_DEFAULT_NUM_CTX, trained[1] as number) : undefined
}

/** The smallest window recent Ollama versions give a model that sets no num_ctx. */
const OLLAMA_DEFAULT_NUM_CTX = 4096

function isWindow(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= MIN_LISTED_WINDOW && value <= MAX_LISTED_WINDOW
}
