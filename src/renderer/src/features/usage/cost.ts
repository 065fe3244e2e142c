/**
 * What tokens cost, from the prices the user entered in Settings (Settings.modelPrices, per
 * million tokens). Pure. A run whose model has no price has no cost: it is never shown as $0.00
 * (docs/architecture.md, "Token usage and cost").
 */
import type { Usage } from '../../../../shared/agent-events'
import type { ModelPrice, PriceCurrency, Settings } from '../../../../shared/bridge'
import { hasUsage, modelIdOfRun } from '../../../../shared/usage'

export type ModelPrices = Settings['modelPrices']

export interface Cost {
  amount: number
  currency: PriceCurrency
}

/** A run as far as its cost goes: its model label ("provider:model") and its tokens. */
export interface PricedRun {
  model: string | null
  usage: Usage | null
}

const PER = 1_000_000

/**
 * The cost of `usage` at `price`. Cached input tokens are part of the input tokens: they cost the
 * cached price when there is one, the input price otherwise; reasoning tokens are part of the
 * output tokens and cost what output costs.
 */
export function costOf(usage: Usage, price: ModelPrice): Cost {
  const input = Math.max(0, usage.inputTokens ?? 0)
  const cached = Math.min(input, Math.max(0, usage.cachedInputTokens ?? 0))
  const output = Math.max(0, usage.outputTokens ?? 0)
  const amount =
    ((input - cached) * price.inputPerMTok + cached * (price.cachedInputPerMTok ?? price.inputPerMTok) + output * price.outputPerMTok) / PER
  return { amount, currency: price.currency ?? 'USD' }
}

/** The price of a run's model, looked up by its id (the label without the provider); null when none is set. */
export function priceOfRun(model: string | null, prices: ModelPrices | undefined): ModelPrice | null {
  if (!model || !prices) return null
  const id = modelIdOfRun(model)
  return Object.hasOwn(prices, id) ? prices[id]! : null
}

/** A run's cost, or null when it reported no tokens or its model has no price. */
export function runCost(run: PricedRun, prices: ModelPrices | undefined): Cost | null {
  if (!hasUsage(run.usage)) return null
  const price = priceOfRun(run.model, prices)
  return price ? costOf(run.usage, price) : null
}

export interface TotalCost {
  /** One amount per currency the priced runs were in, USD first. */
  costs: Cost[]
  /** Runs with tokens whose model has no price: their tokens are in the total, their cost is not. */
  unpricedRuns: number
  /** Those runs' model ids, each once, in order of first use. */
  unpricedModels: string[]
}

const CURRENCY_ORDER: readonly PriceCurrency[] = ['USD', 'CNY']

/** The cost of a conversation's runs, per currency; empty `costs` when none of them is priced. */
export function totalCost(runs: Iterable<PricedRun>, prices: ModelPrices | undefined): TotalCost {
  const sums = new Map<PriceCurrency, number>()
  let unpricedRuns = 0
  const unpricedModels: string[] = []
  for (const run of runs) {
    if (!hasUsage(run.usage)) continue
    const cost = runCost(run, prices)
    if (cost) {
      sums.set(cost.currency, (sums.get(cost.currency) ?? 0) + cost.amount)
    } else {
      unpricedRuns++
      const id = run.model ? modelIdOfRun(run.model) : ''
      if (id && !unpricedModels.includes(id)) unpricedModels.push(id)
    }
  }
  const costs = CURRENCY_ORDER.filter((currency) => sums.has(currency)).map((currency) => ({ currency, amount: sums.get(currency)! }))
  return { costs, unpricedRuns, unpricedModels }
}
