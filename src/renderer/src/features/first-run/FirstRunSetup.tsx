import { useEffect, useId, useState } from 'react'
import type { LocalServer } from '../../../../shared/bridge'
import { getDeskclawApi } from '../../bridge'
import { useT } from '../../i18n'
import { useSettingsStore } from '../../stores'
import { Dialog } from '../common'

const DISMISSED_KEY = 'deskclaw.firstRunDismissed'

/**
 * First run (docs/architecture.md, "First run"): while no model is configured, offer the model
 * servers running on this machine (Ollama, LM Studio) with their models, one click each; or Settings.
 */
export function FirstRunSetup({ onOpenSettings }: { onOpenSettings(): void }) {
  const t = useT()
  const titleId = useId()
  const settings = useSettingsStore((state) => state.settings)
  const update = useSettingsStore((state) => state.update)
  const [dismissed, setDismissed] = useState(() => readDismissed())
  const [servers, setServers] = useState<LocalServer[] | null>(null)
  const [chosen, setChosen] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const needed = settings !== null && settings.model.trim() === '' && !dismissed

  useEffect(() => {
    if (!needed || servers !== null) return
    void getDeskclawApi()
      .invoke('providers.detectLocal', {})
      .then((result) => setServers(result.ok ? result.data.servers : []))
  }, [needed, servers])

  if (!needed) return null
  const dismiss = () => {
    try {
      localStorage.setItem(DISMISSED_KEY, '1')
    } catch {
      // storage refused: it asks again next time, which is harmless
    }
    setDismissed(true)
  }
  const use = async (server: LocalServer) => {
    const model = chosen[server.baseUrl] ?? server.models[0]
    if (!model) return
    const result = await update({ provider: 'openai-compatible', baseUrl: server.baseUrl, model })
    if (result.ok) setDismissed(true)
    else setError(t.error(result.error))
  }

  return (
    <Dialog
      labelledBy={titleId}
      className="first-run-dialog"
      testId="first-run"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault()
          dismiss()
        }
      }}
    >
      <h2 id={titleId} className="dialog-title">
        {t('firstRun.title')}
      </h2>
      {/* "These are running" only above servers that were found (issue 22, item 10). */}
      <p className="dialog-body" data-testid="first-run-body">
        {t('firstRun.body')}
        {servers !== null && servers.length > 0 && ` ${t('firstRun.found')}`}
      </p>
      {servers === null && <p className="dialog-body" data-testid="first-run-searching">{t('firstRun.searching')}</p>}
      {servers !== null && servers.length === 0 && <p className="dialog-body" data-testid="first-run-none">{t('firstRun.none')}</p>}
      {servers?.map((server) => (
        <div key={server.baseUrl} className="first-run-server" data-testid="first-run-server" data-name={server.name}>
          <div className="first-run-server-name">
            <strong>{server.name}</strong> <code>{server.baseUrl}</code>
          </div>
          {server.models.length === 0 ? (
            <span className="dialog-body">{t('firstRun.noModels')}</span>
          ) : (
            <div className="first-run-server-actions">
              <select
                className="text-input"
                aria-label={t('firstRun.model')}
                data-testid="first-run-model"
                value={chosen[server.baseUrl] ?? server.models[0]}
                onChange={(event) => setChosen({ ...chosen, [server.baseUrl]: event.target.value })}
              >
                {server.models.map((model) => (
                  <option key={model} value={model}>
                    {model}
                  </option>
                ))}
              </select>
              <button type="button" className="btn btn-primary" data-testid="first-run-use" onClick={() => void use(server)}>
                {t('firstRun.use')}
              </button>
            </div>
          )}
        </div>
      ))}
      {error && (
        <p className="dialog-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" data-testid="first-run-later" onClick={dismiss}>
          {t('firstRun.later')}
        </button>
        <button
          type="button"
          className="btn"
          data-testid="first-run-settings"
          onClick={() => {
            dismiss()
            onOpenSettings()
          }}
        >
          {t('firstRun.settings')}
        </button>
      </div>
    </Dialog>
  )
}

function readDismissed(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) === '1'
  } catch {
    return false
  }
}
