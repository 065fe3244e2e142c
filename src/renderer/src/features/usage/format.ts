/**
 * Token counts and amounts of money as the chat shows them, per language. Pure (no React, no
 * stores), so it is unit-tested under plain Node (test/unit/renderer/usage-format.test.ts).
 */
import type { Language, PriceCurrency } from '../../../../shared/bridge'

/** Below this a count is written in full (9,876); from it on, short (12.3k, 1.23万). */
const COMPACT_FROM = 10_000

interface CompactUnit {
  size: number
  suffix: string
}

/** Each language's own steps, smallest first: thousands in English, 万 and 亿 in Chinese. */
const UNITS: Record<Language, readonly CompactUnit[]> = {
  en: [
    { size: 1e3, suffix: 'k' },
    { size: 1e6, suffix: 'M' },
    { size: 1e9, suffix: 'B' }
  ],
  'zh-CN': [
    { size: 1e4, suffix: '万' },
    { size: 1e8, suffix: '亿' }
  ]
}

/** A count in full with the language's separators: "1,234". */
export function formatTokenCount(n: number, language: Language): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 0 }).format(Math.max(0, n))
}

/** A count as the chat shows it: in full below 10,000, else short with three significant digits ("12.3k", "1.84万"). */
export function formatTokens(n: number, language: Language): string {
  const value = Math.max(0, Math.round(n))
  if (value < COMPACT_FROM) return formatTokenCount(value, language)
  const units = UNITS[language]
  for (let i = units.length - 1; i >= 0; i--) {
    const unit = units[i]!
    if (value < unit.size) continue
    const scaled = value / unit.size
    const digits = fractionDigits(scaled)
    const next = units[i + 1]
    // 999,950 is "1M", not "1,000k": a value that rounds up to the next step takes its suffix.
    if (next && roundTo(scaled, digits) * unit.size >= next.size) return short(value / next.size, next.suffix, language)
    return short(scaled, unit.suffix, language)
  }
  return formatTokenCount(value, language)
}

function short(scaled: number, suffix: string, language: Language): string {
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: fractionDigits(scaled) }).format(scaled)
  return `${number}${suffix}`
}

/** Three significant digits: 1.23, 12.3, 123 (and whole numbers beyond). */
function fractionDigits(scaled: number): number {
  return scaled < 10 ? 2 : scaled < 100 ? 1 : 0
}

function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}

/** Half a cent (or fen): less than this would read as 0.00, which it is not. */
const SMALLEST_SHOWN = 0.005

/**
 * An amount in whole cents, in the language's own way of writing the currency ("$0.03", "CN¥0.20",
 * "US$0.03", "¥0.20"). A cost that is not zero never reads as 0.00: it is "<$0.01". Zero itself
 * (a model priced at zero) is "$0.00".
 */
export function formatCost(amount: number, currency: PriceCurrency, language: Language): string {
  const money = new Intl.NumberFormat(language, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 })
  if (amount > 0 && amount < SMALLEST_SHOWN) return `<${money.format(0.01)}`
  return money.format(Math.max(0, amount))
}

/** An amount to the millionth, for tooltips: "$0.004213". */
export function formatExactCost(amount: number, currency: PriceCurrency, language: Language): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 6 }).format(
    Math.max(0, amount)
  )
}
