/**
 * The "Model prices" part of the settings form's draft (ModelPricesSection.tsx): rows as typed, and
 * the Settings.modelPrices record they stand for with what is wrong with each row, checked with the
 * very schema main checks the record with. Pure, unit-tested under plain Node. A row left entirely
 * blank is dropped rather than refused.
 */
import type { PriceCurrency, Settings } from '../../../../shared/bridge'
// Values, not only types: the draft is checked with the very schema main checks it with.
import { MODEL_PRICES_MAX, SettingsSchema } from '../../../../shared/bridge/settings'
import type { Translator } from '../../i18n'

/** The longest model id a price is kept for (SettingsSchema's record key). */
export const MODEL_ID_MAX = 200

/** One model's price as typed (numbers as text; `cached` empty: as input). */
export interface PriceRowDraft {
  /** Identifies the row while its model id is edited (React key, errors). */
  key: string
  model: string
  input: string
  output: string
  cached: string
  currency: PriceCurrency
}

/** The section's part of the settings form's draft. */
export interface PricesDraft {
  modelPrices: readonly PriceRowDraft[]
}

let rowCount = 0
/** A new row (a new key each time), the model filled in when given. */
export function newPriceRow(model = ''): PriceRowDraft {
  return { key: `price-${++rowCount}`, model, input: '', output: '', cached: '', currency: 'USD' }
}

export function toPricesDraft(settings: Settings): PricesDraft {
  return {
    modelPrices: Object.entries(settings.modelPrices).map(([model, price]) => ({
      ...newPriceRow(model),
      input: String(price.inputPerMTok),
      output: String(price.outputPerMTok),
      cached: price.cachedInputPerMTok === undefined ? '' : String(price.cachedInputPerMTok),
      currency: price.currency ?? 'USD'
    }))
  }
}

/** A price as typed: a plain non-negative decimal ("2.5", "0", ".75"); null when it is not one. */
export function parsePrice(text: string): number | null {
  const trimmed = text.trim()
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(trimmed)) return null
  const value = Number(trimmed)
  return Number.isFinite(value) ? value : null
}

function isBlank(row: PriceRowDraft): boolean {
  return [row.model, row.input, row.output, row.cached].every((text) => text.trim() === '')
}

export interface PricesEvaluation {
  next: Pick<Settings, 'modelPrices'>
  /** For the form: anything wrong at all blocks Save. */
  errors: { modelPrices?: string }
  /** What is wrong with each row, by its key. */
  rowErrors: Readonly<Record<string, string>>
}

/** The prices a draft stands for and what is wrong with each row (translated). */
export function evaluatePricesDraft(draft: PricesDraft, t: Translator): PricesEvaluation {
  const modelPrices: Settings['modelPrices'] = {}
  const rowErrors: Record<string, string> = {}
  const rows = draft.modelPrices.filter((row) => !isBlank(row))
  for (const row of rows) {
    const model = row.model.trim()
    const input = parsePrice(row.input)
    const output = parsePrice(row.output)
    const cached = row.cached.trim() === '' ? undefined : parsePrice(row.cached)
    let error: string | undefined
    if (model === '') error = t('settings.prices.modelRequired')
    else if (model.length > MODEL_ID_MAX) error = t('settings.prices.modelTooLong', { max: MODEL_ID_MAX })
    else if (Object.hasOwn(modelPrices, model)) error = t('settings.prices.duplicate', { model })
    else if (input === null || output === null || cached === null) error = t('settings.prices.invalidPrice')
    if (error !== undefined) {
      rowErrors[row.key] = error
      continue
    }
    modelPrices[model] = {
      inputPerMTok: input!,
      outputPerMTok: output!,
      ...(cached !== undefined && cached !== null ? { cachedInputPerMTok: cached } : {}),
      ...(row.currency !== 'USD' ? { currency: row.currency } : {})
    }
  }
  const errors: PricesEvaluation['errors'] = {}
  if (rows.length > MODEL_PRICES_MAX) errors.modelPrices = t('settings.prices.tooMany', { max: MODEL_PRICES_MAX })
  else if (Object.keys(rowErrors).length > 0) errors.modelPrices = t('settings.fixFields')
  else {
    // Whatever else the schema refuses (a price beyond its limit), in its own words.
    const parsed = SettingsSchema.shape.modelPrices.safeParse(modelPrices)
    if (!parsed.success) errors.modelPrices = t('settings.invalidValue', { message: parsed.error.issues[0]?.message ?? '' })
  }
  return { next: { modelPrices }, errors, rowErrors }
}
