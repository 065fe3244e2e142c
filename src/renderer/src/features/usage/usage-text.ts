/**
 * The words around the numbers: an answer's usage line and its tooltip, the conversation's total
 * and its tooltip. Pure given a Translator (makeTranslator works under plain Node), so the unit
 * tests read exactly what the chat shows.
 */
import type { Usage } from '../../../../shared/agent-events'
import type { ModelPrice } from '../../../../shared/bridge'
import { modelIdOfRun, totalTokensOf } from '../../../../shared/usage'
import type { Translator } from '../../i18n'
import type { Cost, TotalCost } from './cost'
import { formatCost, formatExactCost, formatTokenCount, formatTokens } from './format'

/** "1,234 in · 567 out · 200 cached · $0.01": short counts, the optional parts only when reported. */
export function runUsageLine(t: Translator, usage: Usage, cost: Cost | null): string {
  const n = (value: number | undefined) => formatTokens(value ?? 0, t.language)
  const parts = [t('usage.in', { n: n(usage.inputTokens) }), t('usage.out', { n: n(usage.outputTokens) })]
  if (usage.cachedInputTokens) parts.push(t('usage.cached', { n: n(usage.cachedInputTokens) }))
  if (usage.reasoningTokens) parts.push(t('usage.reasoning', { n: n(usage.reasoningTokens) }))
  if (cost) parts.push(formatCost(cost.amount, cost.currency, t.language))
  return parts.join(' · ')
}

/** Exact counts, one per line: input (of which cached), output (of which reasoning), total. */
function countLines(t: Translator, usage: Usage): string[] {
  const n = (value: number | undefined) => formatTokenCount(value ?? 0, t.language)
  return [
    usage.cachedInputTokens
      ? t('usage.detail.inputCached', { n: n(usage.inputTokens), cached: n(usage.cachedInputTokens) })
      : t('usage.detail.input', { n: n(usage.inputTokens) }),
    usage.reasoningTokens
      ? t('usage.detail.outputReasoning', { n: n(usage.outputTokens), reasoning: n(usage.reasoningTokens) })
      : t('usage.detail.output', { n: n(usage.outputTokens) }),
    t('usage.detail.total', { n: n(totalTokensOf(usage)) })
  ]
}

/** An answer's tooltip: the model, the exact counts, and the cost to the millionth (or why there is none). */
export function runUsageDetail(t: Translator, usage: Usage, model: string | null, cost: Cost | null, price: ModelPrice | null): string {
  const lines: string[] = []
  if (model) lines.push(t('usage.detail.model', { model: modelIdOfRun(model) }))
  lines.push(...countLines(t, usage))
  if (cost && price) {
    const rate = (amount: number) => formatExactCost(amount, cost.currency, t.language)
    lines.push(
      t('usage.detail.cost', { cost: formatExactCost(cost.amount, cost.currency, t.language) }),
      t('usage.detail.rates', { input: rate(price.inputPerMTok), output: rate(price.outputPerMTok) })
    )
  } else if (model) {
    lines.push(t('usage.detail.noPrice', { model: modelIdOfRun(model) }))
  }
  return lines.join('\n')
}

/** "18.4k tokens · $0.03" (each currency its own amount); a "+" when some runs have no price. */
export function conversationUsageLine(t: Translator, usage: Usage, total: TotalCost): string {
  const parts = [t('usage.conversation', { n: formatTokens(totalTokensOf(usage), t.language) })]
  if (total.costs.length > 0) {
    const money = total.costs.map((cost) => formatCost(cost.amount, cost.currency, t.language)).join(' + ')
    parts.push(total.unpricedRuns > 0 ? `${money}+` : money)
  }
  return parts.join(' · ')
}

/** The conversation's tooltip: the exact counts, how many runs they cover, the cost and what it leaves out. */
export function conversationUsageDetail(t: Translator, usage: Usage, runs: number, total: TotalCost): string {
  const lines = [t('usage.conversation.title'), ...countLines(t, usage), t('usage.conversation.runs', { n: runs })]
  for (const cost of total.costs) lines.push(t('usage.detail.cost', { cost: formatExactCost(cost.amount, cost.currency, t.language) }))
  if (total.unpricedRuns > 0) {
    const models = total.unpricedModels.join(', ')
    // No price at all: say where to set one. Some: say what the amount leaves out.
    if (total.costs.length === 0) lines.push(models ? t('usage.conversation.noPrices', { models }) : t('usage.conversation.noPricesUnknown'))
    else lines.push(models ? t('usage.conversation.unpriced', { n: total.unpricedRuns, models }) : t('usage.conversation.unpricedUnknown', { n: total.unpricedRuns }))
  }
  return lines.join('\n')
}
