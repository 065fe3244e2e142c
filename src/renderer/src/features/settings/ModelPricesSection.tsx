/**
 * Settings, "Model prices": what each model costs per million tokens (Settings.modelPrices), so the
 * chat can show the cost of an answer and of a conversation next to its tokens (features/usage).
 * Part of the settings form's draft (model-prices.ts): saved with the rest by its Save button.
 */
import { useEffect, useId, useRef, useState } from 'react'
import type { PriceCurrency } from '../../../../shared/bridge'
import { MODEL_PRICES_MAX, PriceCurrencySchema } from '../../../../shared/bridge/settings'
import { useT } from '../../i18n'
import { XIcon } from '../common'
import { evaluatePricesDraft, MODEL_ID_MAX, newPriceRow, type PriceRowDraft, type PricesDraft } from './model-prices'

const CURRENCIES: readonly PriceCurrency[] = PriceCurrencySchema.options

function PriceRow({
  row,
  error,
  autoFocus,
  onChange,
  onRemove
}: {
  row: PriceRowDraft
  error: string | undefined
  autoFocus: boolean
  onChange(next: PriceRowDraft): void
  onRemove(): void
}) {
  const t = useT()
  const id = useId()
  const modelInput = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (autoFocus) modelInput.current?.focus()
  }, [autoFocus])
  const name = row.model.trim() || t('settings.prices.model')
  const aria = { 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined }
  const price = (field: 'input' | 'output' | 'cached', label: string, placeholder = '') => (
    <input
      className="text-input price-input"
      data-testid={`price-${field}`}
      inputMode="decimal"
      autoComplete="off"
      value={row[field]}
      placeholder={placeholder}
      aria-label={`${name}: ${label}`}
      onChange={(event) => onChange({ ...row, [field]: event.target.value })}
      {...aria}
    />
  )
  return (
    <li className={`price-row${error ? ' invalid' : ''}`} data-testid="price-row" data-model={row.model.trim()}>
      <div className="price-fields">
        <input
          ref={modelInput}
          className="text-input mono price-model"
          data-testid="price-model"
          value={row.model}
          maxLength={MODEL_ID_MAX + 1}
          spellCheck={false}
          autoComplete="off"
          placeholder="gpt-4o-mini"
          aria-label={t('settings.prices.model')}
          onChange={(event) => onChange({ ...row, model: event.target.value })}
          {...aria}
        />
        {price('input', t('settings.prices.input'))}
        {price('output', t('settings.prices.output'))}
        {price('cached', t('settings.prices.cached'), t('settings.prices.cachedPlaceholder'))}
        <select
          className="text-input price-currency"
          data-testid="price-currency"
          value={row.currency}
          aria-label={`${name}: ${t('settings.prices.currency')}`}
          onChange={(event) => onChange({ ...row, currency: event.target.value as PriceCurrency })}
        >
          {CURRENCIES.map((currency) => (
            <option key={currency} value={currency} title={t(`currency.${currency}`)}>
              {currency}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="icon-button price-remove"
          data-testid="price-remove"
          aria-label={t('settings.prices.remove', { model: name })}
          title={t('settings.prices.remove', { model: name })}
          onClick={onRemove}
        >
          <XIcon size={14} />
        </button>
      </div>
      {error && (
        <div id={`${id}-error`} className="field-error" data-testid="settings-field-error" data-field="modelPrices">
          {error}
        </div>
      )}
    </li>
  )
}

export function ModelPricesSection({
  draft,
  set,
  suggestedModel
}: {
  draft: PricesDraft
  set<K extends keyof PricesDraft>(key: K, value: PricesDraft[K]): void
  /** What "Add a price" fills in: the model in Settings, unless it has a price already. */
  suggestedModel: string
}) {
  const t = useT()
  const id = useId()
  const [focusKey, setFocusKey] = useState<string | null>(null)
  const { errors, rowErrors } = evaluatePricesDraft(draft, t)
  const rows = draft.modelPrices
  const priced = new Set(rows.map((row) => row.model.trim()))

  const add = () => {
    const row = newPriceRow(suggestedModel && !priced.has(suggestedModel) ? suggestedModel : '')
    setFocusKey(row.key)
    set('modelPrices', [...rows, row])
  }
  const change = (key: string, next: PriceRowDraft) => set('modelPrices', rows.map((row) => (row.key === key ? next : row)))
  const remove = (key: string) => set('modelPrices', rows.filter((row) => row.key !== key))

  return (
    <section className="model-prices" data-testid="model-prices-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('settings.section.prices')}</h3>
      <p className="field-hint">{t('settings.prices.intro')}</p>
      {rows.length === 0 ? (
        <div className="model-prices-empty">{t('settings.prices.none')}</div>
      ) : (
        <>
          <div className="price-fields price-head" aria-hidden="true">
            <span>{t('settings.prices.model')}</span>
            <span>{t('settings.prices.input')}</span>
            <span>{t('settings.prices.output')}</span>
            <span>{t('settings.prices.cached')}</span>
            <span>{t('settings.prices.currency')}</span>
            <span />
          </div>
          <ul className="price-list" aria-label={t('settings.section.prices')}>
            {rows.map((row) => (
              <PriceRow
                key={row.key}
                row={row}
                error={rowErrors[row.key]}
                autoFocus={row.key === focusKey}
                onChange={(next) => change(row.key, next)}
                onRemove={() => remove(row.key)}
              />
            ))}
          </ul>
        </>
      )}
      {errors.modelPrices && Object.keys(rowErrors).length === 0 && (
        <div className="field-error" data-testid="settings-field-error" data-field="modelPrices">
          {errors.modelPrices}
        </div>
      )}
      <button type="button" className="btn btn-small" data-testid="price-add" disabled={rows.length >= MODEL_PRICES_MAX} onClick={add}>
        {t('settings.prices.add')}
      </button>
    </section>
  )
}
