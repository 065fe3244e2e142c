/**
 * The settings form's shared state: the draft the sections saved by the form's Save button edit,
 * what it stands for (settings-draft.ts), whether it holds unsaved changes, and saving it. Each of
 * those sections reads and edits the draft through the SettingsFormState it is given.
 */
import { useId, useMemo, useState } from 'react'
import type { Settings } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { useSettingsStore } from '../../stores'
import { fieldAria } from './fields'
import { type PendingSections, usePendingSections } from './pending-sections'
import { comparableDraft, type Draft, type DraftErrors, evaluateDraft, toDraft } from './settings-draft'

export interface SettingsFormState {
  /** The form's own id: each field's id starts with it. */
  id: string
  /** The settings as saved. */
  settings: Settings
  draft: Draft
  /** The settings the draft stands for. */
  next: Settings
  /** What is wrong with each field, translated. */
  errors: DraftErrors
  invalid: boolean
  /** The draft differs from the saved settings, or a section that saves its own copy holds changes. */
  dirty: boolean
  /** The sections that keep their own copy (Web, Checkpoints, Project checks): saved by save() too. */
  pending: PendingSections
  saving: boolean
  saved: boolean
  /** Why the last save failed, in words. */
  error: string | null
  set<K extends keyof Draft>(key: K, value: Draft[K]): void
  /** What an input of a Field carries for its error (aria-invalid, aria-describedby). */
  aria(field: keyof Draft, htmlFor: string, hint?: boolean): ReturnType<typeof fieldAria>
  /** Saves what changed in the draft and in every section; true when all of it was saved. */
  save(): Promise<boolean>
  /** After the saved providers' list changed what a run reads (a switch), the form shows it. */
  takeProvider(saved: Settings): void
}

export function useSettingsForm(settings: Settings): SettingsFormState {
  const t = useT()
  const id = useId()
  const update = useSettingsStore((s) => s.update)
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings))
  const [saving, setSaving] = useState(false)
  const [saved, setSaved] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const { next, errors } = useMemo(() => evaluateDraft(draft, settings, t), [draft, settings, t])
  const invalid = Object.keys(errors).length > 0
  const pending = usePendingSections()
  const draftDirty = useMemo(() => comparableDraft(draft) !== comparableDraft(toDraft(settings)), [draft, settings])
  const dirty = draftDirty || pending.dirty

  const takeProvider = (saved: Settings) => {
    setDraft((d) => ({ ...d, provider: saved.provider, baseUrl: saved.baseUrl, apiKeyEnv: saved.apiKeyEnv, model: saved.model }))
  }

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }))
    setSaved(false)
    setError(null)
  }
  const aria = (field: keyof Draft, htmlFor: string, hint = true) => fieldAria(htmlFor, hint, errors[field])

  const save = async (): Promise<boolean> => {
    setError(null)
    if (invalid) {
      setError(t('settings.fixFields'))
      return false
    }
    // Send only what changed, so a concurrent change elsewhere is not overwritten.
    const patch: Partial<Settings> = {}
    for (const key of Object.keys(next) as Array<keyof Settings>) {
      if (JSON.stringify(next[key]) !== JSON.stringify(settings[key])) (patch as Record<string, unknown>)[key] = next[key]
    }
    setSaving(true)
    const result = Object.keys(patch).length > 0 ? await update(patch) : null
    if (result && !result.ok) {
      setSaving(false)
      const label = t(`error.${result.error.code}`)
      setError(result.error.message ? `${label}: ${result.error.message}` : label)
      return false
    }
    if (result) setDraft(toDraft(result.data))
    // Each section shows its own reason when it could not be saved.
    const sectionsSaved = await pending.saveAll()
    setSaving(false)
    if (!sectionsSaved) {
      setError(t('settings.sectionNotSaved'))
      return false
    }
    setSaved(true)
    return true
  }

  return { id, settings, draft, next, errors, invalid, dirty, pending, saving, saved, error, set, aria, save, takeProvider }
}
