/**
 * Token usage arithmetic shared by the chat (per answer, per conversation) and the exports: sums
 * that keep "not reported" apart from zero, and the model id a run's tokens are priced by
 * (docs/architecture.md, "Token usage and cost").
 */
import type { Usage } from './agent-events'

const COUNTS = ['inputTokens', 'outputTokens', 'totalTokens', 'cachedInputTokens', 'reasoningTokens'] as const

/** Whether any tokens were reported: a run whose provider sent no counts has nothing to show. */
export function hasUsage(usage: Usage | null | undefined): usage is Usage {
  return usage !== null && usage !== undefined && COUNTS.some((field) => (usage[field] ?? 0) > 0)
}

/** All tokens of a usage: totalTokens as the provider reported it, else input + output. */
export function totalTokensOf(usage: Usage): number {
  return usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0)
}

/**
 * Several usages added up (a conversation's runs). A count stays absent unless one of them has it,
 * so "no cached tokens reported" is not shown as "0 cached"; the total is always there.
 */
export function sumUsage(usages: Iterable<Usage | null | undefined>): Usage {
  const sum: Usage = {}
  let total = 0
  for (const usage of usages) {
    if (!usage) continue
    for (const field of COUNTS) {
      const value = usage[field]
      if (field === 'totalTokens' || value === undefined || !Number.isFinite(value)) continue
      sum[field] = (sum[field] ?? 0) + value
    }
    total += totalTokensOf(usage)
  }
  sum.totalTokens = total
  return sum
}

/**
 * The model id in a run's "provider:model" label (RunSummary.model): what Settings.modelPrices is
 * keyed by. Only the first colon separates, since ids have their own ("llama3:8b").
 */
export function modelIdOfRun(label: string): string {
  const colon = label.indexOf(':')
  return colon === -1 ? label : label.slice(colon + 1)
}
