/**
 * Saved providers (issue 22, item 9b; docs/architecture.md, "Saved providers"): the provider,
 * base URL, key variable and model the form shows, saved under a name, to switch between as
 * Cherry Studio does. Acts at once through `settings.update` like the Checkpoints section; main
 * copies a chosen provider's values into the fields a run reads (withSavedProviders), and the form
 * takes them from the answer (`onChanged`). Each saved provider's pasted key is its own (ApiKeyField).
 */
import { useId, useState } from 'react'
import type { SavedProvider, Settings } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { useSettingsStore } from '../../stores/settings'

/** The provider fields the form shows now; null while one of them is invalid. */
export type ProviderValues = Pick<SavedProvider, 'provider' | 'baseUrl' | 'apiKeyEnv' | 'model'>

/** An id of letters and digits (SAVED_PROVIDER_ID_PATTERN), unique enough for one user's list. */
function newId(): string {
  return `p${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
}

export function SavedProvidersSection({
  settings,
  current,
  onChanged
}: {
  settings: Settings
  current: ProviderValues | null
  onChanged(next: Settings): void
}) {
  const t = useT()
  const id = useId()
  const update = useSettingsStore((state) => state.update)
  const [name, setName] = useState('')
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null)
  const [deleting, setDeleting] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const list = settings.savedProviders

  const apply = async (patch: Partial<Settings>): Promise<boolean> => {
    setBusy(true)
    const result = await update(patch)
    setBusy(false)
    if (!result.ok) {
      setProblem(t('settings.savedProviders.failed', { message: t.error(result.error) }))
      return false
    }
    setProblem(null)
    onChanged(result.data)
    return true
  }

  const add = async () => {
    if (!current) return setProblem(t('settings.savedProviders.fixFirst'))
    const trimmed = name.trim()
    if (trimmed === '') return setProblem(t('settings.savedProviders.nameRequired'))
    const entry: SavedProvider = { id: newId(), name: trimmed, ...current, models: [] }
    // The form's values too: they become the new active provider's, saved in one step.
    if (await apply({ ...current, savedProviders: [...list, entry], activeProviderId: entry.id })) setName('')
  }

  const rename = async () => {
    if (!renaming) return
    const trimmed = renaming.name.trim()
    if (trimmed === '') return setProblem(t('settings.savedProviders.nameRequired'))
    if (await apply({ savedProviders: list.map((saved) => (saved.id === renaming.id ? { ...saved, name: trimmed } : saved)) })) setRenaming(null)
  }

  const remove = async (target: string) => {
    if (await apply({ savedProviders: list.filter((saved) => saved.id !== target) })) setDeleting(null)
  }

  return (
    <section data-testid="saved-providers" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('settings.savedProviders.title')}</h3>
      <p className="field-hint">{t('settings.savedProviders.intro')}</p>
      {list.length === 0 ? (
        <p className="field-hint" data-testid="saved-providers-empty">
          {t('settings.savedProviders.empty')}
        </p>
      ) : (
        <ul className="chat-app-list" data-testid="saved-providers-list">
          {list.map((saved) => {
            const active = saved.id === settings.activeProviderId
            return (
              <li
                key={saved.id}
                className={`chat-app${active ? ' enabled' : ''}`}
                data-testid="saved-provider"
                data-name={saved.name}
                data-active={String(active)}
                aria-current={active ? 'true' : undefined}
              >
                <div className="chat-app-head">
                  <div className="chat-app-title">
                    {renaming?.id === saved.id ? (
                      <input
                        className="text-input"
                        data-testid="saved-provider-name-input"
                        aria-label={t('settings.savedProviders.name')}
                        value={renaming.name}
                        autoFocus
                        onChange={(event) => setRenaming({ id: saved.id, name: event.target.value })}
                        onKeyDown={(event) => {
                          if (event.key === 'Enter') {
                            event.preventDefault() // not the settings form's submit
                            void rename()
                          } else if (event.key === 'Escape') {
                            event.stopPropagation()
                            setRenaming(null)
                          }
                        }}
                      />
                    ) : (
                      <span className="chat-app-name" data-testid="saved-provider-name">
                        {saved.name}
                      </span>
                    )}
                    <span className="chat-app-badge">{t(`provider.${saved.provider}`)}</span>
                    {active && (
                      <span className="chat-app-badge" data-testid="saved-provider-active">
                        {t('settings.savedProviders.active')}
                      </span>
                    )}
                  </div>
                </div>
                <div className="chat-app-tested">
                  <code>{saved.baseUrl || t('settings.savedProviders.defaultUrl')}</code> · {saved.model || t('settings.savedProviders.noModel')}
                </div>
                {deleting === saved.id ? (
                  <div className="chat-app-head" role="alertdialog" aria-label={t('settings.savedProviders.confirmDelete', { name: saved.name })}>
                    <span>{t('settings.savedProviders.confirmDelete', { name: saved.name })}</span>
                    <button type="button" className="btn btn-small btn-danger" data-testid="saved-provider-delete-confirm" disabled={busy} onClick={() => void remove(saved.id)}>
                      {t('settings.savedProviders.delete')}
                    </button>
                    <button type="button" className="btn btn-small" onClick={() => setDeleting(null)}>
                      {t('settings.savedProviders.cancel')}
                    </button>
                  </div>
                ) : (
                  <div className="chat-app-head">
                    {!active && (
                      <button type="button" className="btn btn-small" data-testid="saved-provider-use" disabled={busy} onClick={() => void apply({ activeProviderId: saved.id })}>
                        {t('settings.savedProviders.use')}
                      </button>
                    )}
                    {renaming?.id === saved.id ? (
                      <>
                        <button type="button" className="btn btn-small" data-testid="saved-provider-rename-save" disabled={busy} onClick={() => void rename()}>
                          {t('settings.savedProviders.renameSave')}
                        </button>
                        <button type="button" className="btn btn-small" onClick={() => setRenaming(null)}>
                          {t('settings.savedProviders.cancel')}
                        </button>
                      </>
                    ) : (
                      <button type="button" className="btn btn-small" data-testid="saved-provider-rename" disabled={busy} onClick={() => setRenaming({ id: saved.id, name: saved.name })}>
                        {t('settings.savedProviders.rename')}
                      </button>
                    )}
                    <button type="button" className="btn btn-small" data-testid="saved-provider-delete" disabled={busy} onClick={() => setDeleting(saved.id)}>
                      {t('settings.savedProviders.delete')}
                    </button>
                  </div>
                )}
              </li>
            )
          })}
        </ul>
      )}
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          {t('settings.savedProviders.name')}
        </label>
        <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          <input
            id={`${id}-name`}
            className="text-input"
            style={{ flex: 1, minWidth: 0 }}
            data-testid="saved-provider-new-name"
            value={name}
            placeholder={t('settings.savedProviders.namePlaceholder')}
            onChange={(event) => {
              setName(event.target.value)
              setProblem(null)
            }}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return
              event.preventDefault() // not the settings form's submit
              void add()
            }}
          />
          <button type="button" className="btn" data-testid="saved-provider-add" disabled={busy} onClick={() => void add()}>
            {t('settings.savedProviders.add')}
          </button>
        </div>
      </div>
      {problem && (
        <div className="form-error" role="alert" data-testid="saved-providers-problem">
          {problem}
        </div>
      )}
    </section>
  )
}
