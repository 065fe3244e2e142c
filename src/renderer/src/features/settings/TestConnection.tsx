import { useState } from 'react'
import type { ProviderTarget, TestConnectionResult } from '../../../../shared/bridge'
import { getDeskclawApi } from '../../bridge'
import { useT } from '../../i18n'
import { Spinner } from '../common'

/** Test connection: a one-token request to what the form shows (saved or not); the latency, or the error a run would show. */
export function TestConnection({ target, disabled }: { target: ProviderTarget & { model: string }; disabled: boolean }) {
  const t = useT()
  const [testing, setTesting] = useState(false)
  const [result, setResult] = useState<{ key: string; value: TestConnectionResult } | null>(null)
  const key = JSON.stringify(target)
  const shown = result?.key === key ? result.value : null // a result about other values is not shown

  const run = async () => {
    setTesting(true)
    const answer = await getDeskclawApi().invoke('providers.testConnection', target)
    setTesting(false)
    setResult({ key, value: answer.ok ? answer.data : { ok: false, error: answer.error } })
  }

  return (
    <div className="test-connection">
      <button type="button" className="btn btn-small" data-testid="settings-test-connection" disabled={disabled || testing} onClick={() => void run()}>
        {testing && <Spinner size={12} />}
        {testing ? t('settings.testing') : t('settings.testConnection')}
      </button>
      <div className="test-connection-result" role="status" aria-live="polite">
        {shown && !testing && (
          <span className={shown.ok ? 'test-ok' : 'test-failed'} data-testid="settings-test-result" data-ok={String(shown.ok)} data-checked={shown.ok ? (shown.checked ?? 'reply') : undefined}>
            {!shown.ok
              ? t('settings.testFailed', { error: t.error(shown.error) })
              : shown.checked === 'models'
                ? t.count('settings.testModels', shown.models ?? 0, { ms: shown.latencyMs })
                : t('settings.testOk', { model: shown.model, ms: shown.latencyMs })}
          </span>
        )}
      </div>
    </div>
  )
}
