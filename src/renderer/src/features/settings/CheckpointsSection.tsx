/**
 * Settings → Checkpoints (docs/checkpoints.md, "Settings and pruning"): whether checkpoints are
 * recorded, the largest file recorded, how long and how much is kept, and whether a deleted
 * conversation's checkpoints stay. Kept here until saved, by its own button or by the form's Save,
 * which saves every section (pending-sections.ts).
 */
import { useId, useState } from 'react'
import type { CheckpointSettings, Settings } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { useSettingsStore } from '../../stores/settings'
import { CheckField, parseInteger } from './fields'
import { type PendingSections, usePendingSection } from './pending-sections'

const LIMITS = {
  maxFileMB: { min: 1, max: 4096 },
  keepDays: { min: 1, max: 3650 },
  maxTotalMB: { min: 10, max: 1_000_000 }
} as const
type NumberField = keyof typeof LIMITS

export function CheckpointsSection({ settings, pending }: { settings: Settings; pending?: PendingSections }) {
  const t = useT()
  const id = useId()
  const update = useSettingsStore((state) => state.update)
  const saved = settings.checkpoints
  const [enabled, setEnabled] = useState(saved.enabled)
  const [keepAfterDelete, setKeepAfterDelete] = useState(saved.keepAfterDelete)
  const [numbers, setNumbers] = useState<Record<NumberField, string>>({
    maxFileMB: String(saved.maxFileMB),
    keepDays: String(saved.keepDays),
    maxTotalMB: String(saved.maxTotalMB)
  })
  const [problem, setProblem] = useState<string | null>(null)
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved'>('idle')

  const dirty =
    enabled !== saved.enabled ||
    keepAfterDelete !== saved.keepAfterDelete ||
    (Object.keys(LIMITS) as NumberField[]).some((field) => numbers[field] !== String(saved[field]))

  const save = async (): Promise<boolean> => {
    const parsed: Partial<Record<NumberField, number>> = {}
    for (const field of Object.keys(LIMITS) as NumberField[]) {
      const value = parseInteger(numbers[field], LIMITS[field].min, LIMITS[field].max)
      if (value === null) {
        setProblem(t('settings.checkpoints.badNumber', { field: t(`settings.checkpoints.${field}`), ...LIMITS[field] }))
        return false
      }
      parsed[field] = value
    }
    const checkpoints: CheckpointSettings = { enabled, keepAfterDelete, maxFileMB: parsed.maxFileMB!, keepDays: parsed.keepDays!, maxTotalMB: parsed.maxTotalMB! }
    setStatus('saving')
    const result = await update({ checkpoints })
    if (result.ok) {
      setProblem(null)
      setStatus('saved')
      return true
    }
    setProblem(t('settings.checkpoints.failed', { message: t.error(result.error) }))
    setStatus('idle')
    return false
  }
  usePendingSection(pending, 'checkpoints', dirty, save)

  return (
    <section data-testid="checkpoints-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('settings.section.checkpoints')}</h3>
      <p className="field-hint">{t('settings.checkpoints.intro')}</p>
      <CheckField
        label={t('settings.checkpoints.enabled')}
        hint=""
        testId="checkpoints-enabled"
        checked={enabled}
        onChange={(checked) => {
          setEnabled(checked)
          setStatus('idle')
        }}
      />
      <div className="field-row">
        {(Object.keys(LIMITS) as NumberField[]).map((field) => (
          <div className="field" key={field}>
            <label className="field-label" htmlFor={`${id}-${field}`}>
              {t(`settings.checkpoints.${field}`)}
            </label>
            <input
              id={`${id}-${field}`}
              className="text-input"
              data-testid={`checkpoints-${field}`}
              type="number"
              min={LIMITS[field].min}
              max={LIMITS[field].max}
              step={1}
              value={numbers[field]}
              onChange={(event) => {
                setNumbers({ ...numbers, [field]: event.target.value })
                setStatus('idle')
              }}
            />
          </div>
        ))}
      </div>
      <CheckField
        label={t('settings.checkpoints.keepAfterDelete')}
        hint=""
        testId="checkpoints-keep-after-delete"
        checked={keepAfterDelete}
        onChange={(checked) => {
          setKeepAfterDelete(checked)
          setStatus('idle')
        }}
      />
      {problem && (
        <div className="field-error" role="alert" data-testid="checkpoints-problem">
          {problem}
        </div>
      )}
      <div className="field-row">
        <button type="button" className="btn btn-small" data-testid="checkpoints-save" disabled={status === 'saving'} onClick={() => void save()}>
          {t('settings.checkpoints.save')}
        </button>
        {status === 'saved' && (
          <span className="field-hint" role="status" data-testid="checkpoints-saved">
            {t('settings.checkpoints.saved')}
          </span>
        )}
      </div>
    </section>
  )
}
