/**
 * Token usage and cost as the chat shows them (features/usage): counts per language, totals that
 * keep "not reported" apart from zero, cost from Settings.modelPrices with its rounding, currencies,
 * and no cost at all (never a pretend $0.00) for a model without a price; the Settings editor's
 * draft (features/settings/model-prices.ts).
 */
import { describe, expect, it } from 'vitest'
import type { Settings } from '../../../src/shared/bridge'
import { SettingsSchema } from '../../../src/shared/bridge/settings'
import { hasUsage, modelIdOfRun, sumUsage, totalTokensOf } from '../../../src/shared/usage'
import { makeTranslator } from '../../../src/renderer/src/i18n/translator'
import { costOf, priceOfRun, runCost, totalCost } from '../../../src/renderer/src/features/usage/cost'
import { formatCost, formatExactCost, formatTokenCount, formatTokens } from '../../../src/renderer/src/features/usage/format'
import {
  conversationUsageDetail,
  conversationUsageLine,
  runUsageDetail,
  runUsageLine
} from '../../../src/renderer/src/features/usage/usage-text'
import { evaluatePricesDraft, parsePrice, toPricesDraft } from '../../../src/renderer/src/features/settings/model-prices'

const en = makeTranslator('en')
const zh = makeTranslator('zh-CN')

const PRICES: Settings['modelPrices'] = {
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 },
  'deepseek-chat': { inputPerMTok: 2, outputPerMTok: 8, currency: 'CNY' },
  'llama3:8b': { inputPerMTok: 0, outputPerMTok: 0 }
}

describe('token counts', () => {
  it('in full below 10,000, with the language’s separators', () => {
    expect(formatTokens(0, 'en')).toBe('0')
    expect(formatTokens(1234, 'en')).toBe('1,234')
    expect(formatTokens(1234, 'zh-CN')).toBe('1,234')
    expect(formatTokens(9999, 'en')).toBe('9,999')
    expect(formatTokenCount(1_234_567, 'en')).toBe('1,234,567')
    expect(formatTokenCount(1_234_567, 'zh-CN')).toBe('1,234,567')
  })

  it('short from 10,000 on: k / M / B in English, 万 / 亿 in Chinese, three significant digits', () => {
    expect(formatTokens(12_345, 'en')).toBe('12.3k')
    expect(formatTokens(18_400, 'en')).toBe('18.4k')
    expect(formatTokens(10_000, 'en')).toBe('10k')
    expect(formatTokens(123_456, 'en')).toBe('123k')
    expect(formatTokens(1_234_567, 'en')).toBe('1.23M')
    expect(formatTokens(2_500_000_000, 'en')).toBe('2.5B')
    expect(formatTokens(12_345, 'zh-CN')).toBe('1.23万')
    expect(formatTokens(184_000, 'zh-CN')).toBe('18.4万')
    expect(formatTokens(1_234_567, 'zh-CN')).toBe('123万')
    expect(formatTokens(123_456_789, 'zh-CN')).toBe('1.23亿')
  })

  it('a value that rounds up to the next step takes its suffix', () => {
    expect(formatTokens(999_950, 'en')).toBe('1M')
    expect(formatTokens(999_499, 'en')).toBe('999k')
    expect(formatTokens(99_995_000, 'zh-CN')).toBe('1亿')
  })
})

describe('usage totals', () => {
  it('adds runs up; cached and reasoning stay absent unless some run reported them', () => {
    const total = sumUsage([
      { inputTokens: 100, outputTokens: 20, totalTokens: 120 },
      null,
      { inputTokens: 50, outputTokens: 5 },
      {}
    ])
    expect(total).toEqual({ inputTokens: 150, outputTokens: 25, totalTokens: 175 })
    expect('cachedInputTokens' in total).toBe(false)
    const withCache = sumUsage([{ inputTokens: 10, outputTokens: 1, cachedInputTokens: 8, reasoningTokens: 1 }, { inputTokens: 5, outputTokens: 2 }])
    expect(withCache).toEqual({ inputTokens: 15, outputTokens: 3, totalTokens: 18, cachedInputTokens: 8, reasoningTokens: 1 })
  })

  it('a usage with no counts (or zeros only) is nothing to show', () => {
    expect(hasUsage(null)).toBe(false)
    expect(hasUsage({})).toBe(false)
    expect(hasUsage({ inputTokens: 0, outputTokens: 0, totalTokens: 0 })).toBe(false)
    expect(hasUsage({ outputTokens: 1 })).toBe(true)
    expect(totalTokensOf({ inputTokens: 3, outputTokens: 4 })).toBe(7)
    expect(totalTokensOf({ inputTokens: 3, outputTokens: 4, totalTokens: 9 })).toBe(9)
  })

  it('a run’s model id is its label without the provider, colons in the id kept', () => {
    expect(modelIdOfRun('openai:gpt-4o')).toBe('gpt-4o')
    expect(modelIdOfRun('openai-compatible:llama3:8b')).toBe('llama3:8b')
    expect(modelIdOfRun('bare')).toBe('bare')
  })
})

describe('cost', () => {
  it('per million tokens; cached input at its own price, else the input price', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cachedInputTokens: 400_000 }
    // 600k × 2.5 + 400k × 1.25 + 100k × 10, per million
    expect(costOf(usage, PRICES['gpt-4o']!)).toEqual({ amount: 3, currency: 'USD' })
    expect(costOf(usage, { inputPerMTok: 2.5, outputPerMTok: 10 }).amount).toBeCloseTo(3.5, 10)
    // Cached beyond the input (a provider's odd report) is capped at the input.
    expect(costOf({ inputTokens: 10, cachedInputTokens: 50 }, { inputPerMTok: 1e6, outputPerMTok: 0, cachedInputPerMTok: 0 }).amount).toBe(0)
  })

  it('found by the run’s model id; no price, or no tokens: no cost at all', () => {
    expect(priceOfRun('openai:gpt-4o', PRICES)).toBe(PRICES['gpt-4o'])
    expect(priceOfRun('openai:gpt-4o-mini', PRICES)).toBeNull()
    expect(priceOfRun(null, PRICES)).toBeNull()
    expect(runCost({ model: 'openai:unpriced', usage: { inputTokens: 10, outputTokens: 10 } }, PRICES)).toBeNull()
    expect(runCost({ model: 'openai:gpt-4o', usage: null }, PRICES)).toBeNull()
    expect(runCost({ model: 'openai:gpt-4o', usage: { inputTokens: 10 } }, undefined)).toBeNull()
    expect(runCost({ model: 'x:llama3:8b', usage: { inputTokens: 10 } }, PRICES)).toEqual({ amount: 0, currency: 'USD' })
    expect(runCost({ model: 'deepseek:deepseek-chat', usage: { inputTokens: 1_000_000 } }, PRICES)).toEqual({ amount: 2, currency: 'CNY' })
  })

  it('a conversation: one amount per currency, and the runs it leaves out', () => {
    const total = totalCost(
      [
        { model: 'openai:gpt-4o', usage: { inputTokens: 1_000_000, outputTokens: 0 } },
        { model: 'deepseek:deepseek-chat', usage: { inputTokens: 0, outputTokens: 1_000_000 } },
        { model: 'openai:gpt-4o', usage: { inputTokens: 0, outputTokens: 100_000 } },
        { model: 'openai:mystery', usage: { inputTokens: 5, outputTokens: 5 } },
        { model: 'openai:mystery', usage: { inputTokens: 5, outputTokens: 5 } },
        { model: 'openai:gpt-4o', usage: null }
      ],
      PRICES
    )
    expect(total.costs).toEqual([
      { currency: 'USD', amount: 3.5 },
      { currency: 'CNY', amount: 8 }
    ])
    expect(total.unpricedRuns).toBe(2)
    expect(total.unpricedModels).toEqual(['mystery'])
    expect(totalCost([{ model: 'openai:mystery', usage: { inputTokens: 5 } }], PRICES).costs).toEqual([])
  })

  it('money rounds to cents; a cost that is not zero never reads as 0.00', () => {
    expect(formatCost(0.034, 'USD', 'en')).toBe('$0.03')
    expect(formatCost(0.035, 'USD', 'en')).toBe('$0.04')
    expect(formatCost(12.5, 'USD', 'en')).toBe('$12.50')
    expect(formatCost(0.005, 'USD', 'en')).toBe('$0.01')
    expect(formatCost(0.0042, 'USD', 'en')).toBe('<$0.01')
    expect(formatCost(0.000001, 'CNY', 'zh-CN')).toBe('<¥0.01')
    // Priced at zero (a local model) is truly free.
    expect(formatCost(0, 'USD', 'en')).toBe('$0.00')
    expect(formatExactCost(0.0042134, 'USD', 'en')).toBe('$0.004213')
    expect(formatExactCost(3, 'USD', 'en')).toBe('$3.00')
  })

  it('each language writes each currency its own way', () => {
    expect(formatCost(1234.5, 'USD', 'en')).toBe('$1,234.50')
    expect(formatCost(0.2, 'CNY', 'en')).toBe('CN¥0.20')
    expect(formatCost(0.03, 'USD', 'zh-CN')).toBe('US$0.03')
    expect(formatCost(0.2, 'CNY', 'zh-CN')).toBe('¥0.20')
  })
})

describe('what the chat shows', () => {
  const usage = { inputTokens: 12_345, outputTokens: 567, totalTokens: 12_912, cachedInputTokens: 10_000, reasoningTokens: 120 }

  it('an answer: short counts, optional parts when reported, the cost only with a price', () => {
    const cost = runCost({ model: 'openai:gpt-4o', usage }, PRICES)
    expect(runUsageLine(en, usage, cost)).toBe('12.3k in · 567 out · 10k cached · 120 reasoning · $0.02')
    expect(runUsageLine(en, { inputTokens: 1234, outputTokens: 56 }, null)).toBe('1,234 in · 56 out')
    expect(runUsageLine(zh, { inputTokens: 12_345, outputTokens: 56 }, null)).toBe('输入 1.23万 · 输出 56')
  })

  it('an answer’s tooltip: the model, the exact numbers, the exact cost or why there is none', () => {
    const price = priceOfRun('openai:gpt-4o', PRICES)
    const cost = runCost({ model: 'openai:gpt-4o', usage }, PRICES)
    expect(runUsageDetail(en, usage, 'openai:gpt-4o', cost, price).split('\n')).toEqual([
      'Model: gpt-4o',
      'Input: 12,345 tokens (10,000 from the cache)',
      'Output: 567 tokens (120 reasoning)',
      'Total: 12,912 tokens',
      // 2,345 × 2.5 + 10,000 × 1.25 + 567 × 10 = 24,032.5 per million
      'Cost: $0.024033',
      'At $2.50 input and $10.00 output per million tokens'
    ])
    expect(runUsageDetail(zh, { inputTokens: 5, outputTokens: 6 }, 'openai:other', null, null).split('\n')).toEqual([
      '模型：other',
      '输入：5 个 token',
      '输出：6 个 token',
      '合计：11 个 token',
      '设置中没有 other 的价格，因此不显示费用。'
    ])
  })

  it('a conversation: the total, each currency, a "+" when some runs have no price', () => {
    const runs = [
      { model: 'openai:gpt-4o', usage: { inputTokens: 18_000, outputTokens: 400 } },
      { model: 'openai:mystery', usage: { inputTokens: 10, outputTokens: 2 } }
    ]
    const all = sumUsage(runs.map((run) => run.usage))
    const partial = totalCost(runs, PRICES)
    expect(conversationUsageLine(en, all, partial)).toBe('18.4k tokens · $0.05+')
    expect(conversationUsageLine(en, all, totalCost(runs.slice(0, 1), PRICES))).toBe('18.4k tokens · $0.05')
    expect(conversationUsageLine(en, all, totalCost(runs, {}))).toBe('18.4k tokens')
    expect(conversationUsageLine(zh, all, totalCost(runs, {}))).toBe('1.84万 token')
    expect(conversationUsageDetail(en, all, 2, partial)).toContain('The cost leaves out 1 run(s) of models without a price: mystery.')
    expect(conversationUsageDetail(en, all, 2, totalCost(runs, {}))).toContain('set a price for gpt-4o, mystery in Settings')
  })
})

describe('the prices editor’s draft', () => {
  it('reads prices as plain non-negative decimals', () => {
    expect(parsePrice('2.5')).toBe(2.5)
    expect(parsePrice(' 0 ')).toBe(0)
    expect(parsePrice('.75')).toBe(0.75)
    for (const bad of ['', '-1', '1e3', 'abc', '1,5', 'Infinity', 'NaN']) expect(parsePrice(bad), bad).toBeNull()
  })

  it('round-trips Settings, drops blank rows, and names what is wrong with each row', () => {
    const draft = toPricesDraft({ modelPrices: PRICES } as Settings)
    const { next, errors } = evaluatePricesDraft(draft, en)
    expect(next.modelPrices).toEqual(PRICES)
    expect(errors).toEqual({})

    const rows = [
      ...draft.modelPrices,
      { key: 'blank', model: ' ', input: '', output: '', cached: '', currency: 'USD' as const },
      { key: 'dup', model: 'gpt-4o', input: '1', output: '1', cached: '', currency: 'USD' as const },
      { key: 'neg', model: 'cheap', input: '-1', output: '1', cached: '', currency: 'USD' as const },
      { key: 'noname', model: '', input: '1', output: '1', cached: '', currency: 'USD' as const }
    ]
    const result = evaluatePricesDraft({ modelPrices: rows }, en)
    expect(result.rowErrors).toEqual({
      dup: 'gpt-4o is listed twice.',
      neg: 'A price is a number, 0 or more (e.g. 2.5).',
      noname: 'Enter the model id, as the model picker shows it.'
    })
    expect(result.errors.modelPrices).toBeDefined()
  })

  it('main refuses what the form refuses: negative, infinite, more than 200 models', () => {
    const schema = SettingsSchema.shape.modelPrices
    expect(schema.safeParse({ m: { inputPerMTok: 1, outputPerMTok: 2, currency: 'CNY' } }).success).toBe(true)
    expect(schema.safeParse({ m: { inputPerMTok: -1, outputPerMTok: 2 } }).success).toBe(false)
    expect(schema.safeParse({ m: { inputPerMTok: Infinity, outputPerMTok: 2 } }).success).toBe(false)
    expect(schema.safeParse({ m: { inputPerMTok: 1, outputPerMTok: Number.NaN } }).success).toBe(false)
    expect(schema.safeParse({ m: { inputPerMTok: 1, outputPerMTok: 2, currency: 'EUR' } }).success).toBe(false)
    expect(schema.safeParse({ ' m': { inputPerMTok: 1, outputPerMTok: 2 } }).success).toBe(false)
    const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, { inputPerMTok: 1, outputPerMTok: 1 }]))
    expect(schema.safeParse(many(200)).success).toBe(true)
    expect(schema.safeParse(many(201)).success).toBe(false)
    const tooMany = { modelPrices: Array.from({ length: 201 }, (_, i) => ({ key: `k${i}`, model: `m${i}`, input: '1', output: '1', cached: '', currency: 'USD' as const })) }
    expect(evaluatePricesDraft(tooMany, en).errors.modelPrices).toBe('At most 200 models have a price.')
  })
})
