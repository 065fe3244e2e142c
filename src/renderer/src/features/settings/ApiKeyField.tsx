import { type KeyboardEvent, useEffect, useId, useState } from 'react'
import type { BridgeResult, ProviderKind, SecretsStatus } from '../../../../shared/bridge'
import { getDeskclawApi } from '../../bridge'
import { useT } from '../../i18n'

type Notice = { kind: 'error'; text: string } | { kind: 'removed' } | null

/**
 * The API key of a provider, pasted once: main encrypts it with the system keychain and only ever
 * answers whether one is stored. The input is a password field that empties once the key is
 * saved; nothing here keeps the key after that. Where main cannot store keys (`deskclaw web`, no
 * keyring) the field is disabled and says why: the environment variable field below is the way there.
 *
 * It sits inside the settings form but is not part of its draft: Save and Remove act at once, and
 * Enter saves the key instead of submitting the form. `onChange` is told after a key was stored or
 * removed (the model list, fetched with the old key, can ask again). With a saved provider active
 * (`saved`), the key is that saved provider's own: stored under its id, used for it alone.
 */
export function ApiKeyField({ provider, saved, onChange }: { provider: ProviderKind; saved?: { id: string; name: string }; onChange?: () => void }) {
  const t = useT()
  const id = useId()
  const [status, setStatus] = useState<SecretsStatus | null>(null)
  const [key, setKey] = useState('')
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<Notice>(null)

  useEffect(() => {
    let current = true
    void getDeskclawApi()
      .invoke('secrets.status', {})
      .then((result) => {
        if (!current) return
        if (result.ok) setStatus(result.data)
        else setNotice({ kind: 'error', text: t('apiKey.loadFailed', { message: result.error.message }) })
      })
    return () => {
      current = false
    }
    // Asked once per opening of the settings (t only words the failure); Save and Remove answer with the new status.
  }, [])

  const available = status?.available ?? false
  const stored = (saved ? status?.saved?.[saved.id] : status?.providers[provider]) ?? false
  const owner = saved ? { provider, savedProviderId: saved.id } : { provider }

  const apply = (result: BridgeResult<SecretsStatus>, failed: 'apiKey.saveFailed' | 'apiKey.removeFailed'): boolean => {
    if (result.ok) {
      setStatus(result.data)
      onChange?.()
      return true
    }
    setNotice({ kind: 'error', text: t(failed, { message: result.error.message }) })
    return false
  }

  const save = async () => {
    if (busy || key.trim() === '') return
    setBusy(true)
    setNotice(null)
    const result = await getDeskclawApi().invoke('secrets.setApiKey', { ...owner, key })
    setBusy(false)
    if (apply(result, 'apiKey.saveFailed')) setKey('')
  }

  const remove = async () => {
    if (busy) return
    setBusy(true)
    setNotice(null)
    const result = await getDeskclawApi().invoke('secrets.deleteApiKey', owner)
    setBusy(false)
    if (apply(result, 'apiKey.removeFailed')) setNotice({ kind: 'removed' })
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return
    // Enter in this field saves the key; it must not submit (and reset) the settings form around it.
    event.preventDefault()
    void save()
  }

  const reason = status && !status.available ? (status.reason ?? 'failed') : null
  const hintId = `${id}-hint`

  return (
    <div className="field api-key-field" data-testid="api-key-field" data-stored={stored ? 'true' : 'false'}>
      <label className="field-label" htmlFor={`${id}-input`}>
        {saved ? t('apiKey.labelSaved', { name: saved.name }) : t('apiKey.label', { provider: t(`provider.${provider}`) })}
      </label>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <input
          id={`${id}-input`}
          type="password"
          className="text-input mono"
          style={{ flex: 1, minWidth: 0 }}
          data-testid="api-key-input"
          value={key}
          placeholder={t('apiKey.placeholder')}
          autoComplete="off"
          spellCheck={false}
          disabled={!available || busy}
          aria-describedby={hintId}
          onChange={(event) => {
            setKey(event.target.value)
            if (notice) setNotice(null)
          }}
          onKeyDown={onKeyDown}
        />
        <button
          type="button"
          className="btn"
          data-testid="api-key-save"
          disabled={!available || busy || key.trim() === ''}
          onClick={() => void save()}
        >
          {busy ? t('apiKey.saving') : t('apiKey.save')}
        </button>
        {stored && (
          <button type="button" className="btn" data-testid="api-key-remove" disabled={busy} onClick={() => void remove()}>
            {t('apiKey.remove')}
          </button>
        )}
      </div>
      <div id={hintId} className="field-hint">
        {reason ? (
          <span data-testid="api-key-unavailable" data-reason={reason}>
            {t(`apiKey.unavailable.${reason}`, { why: status?.why ?? '' })}
          </span>
        ) : stored ? (
          <>
            <span className="form-ok" data-testid="api-key-stored">
              ✓ {t('apiKey.stored')}
            </span>{' '}
            {t('apiKey.storedHint')}
          </>
        ) : (
          t('apiKey.hint')
        )}
      </div>
      {status?.problem && (
        <div className="field-hint" data-testid="api-key-problem">
          {t('apiKey.problem', { message: status.problem })}
        </div>
      )}
      {notice?.kind === 'removed' && (
        <span className="form-ok" data-testid="api-key-removed">
          {t('apiKey.removed')}
        </span>
      )}
      {notice?.kind === 'error' && (
        <div className="form-error" role="alert" data-testid="api-key-error">
          {notice.text}
        </div>
      )}
    </div>
  )
}
