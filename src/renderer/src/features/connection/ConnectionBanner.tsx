import { useEffect, useState } from 'react'
import { getConnectionMonitor } from '../../bridge'
import { useT } from '../../i18n'
import { useNow } from '../common'
import { useConnectionState } from './useConnectionState'

/** Grace period before "Connecting…" shows, so a normal start-up does not flash a banner. */
const CONNECTING_GRACE_MS = 1500

export function ConnectionBanner() {
  const t = useT()
  const monitor = getConnectionMonitor()
  const state = useConnectionState()
  const [graceOver, setGraceOver] = useState(false)
  const gone = state.addressGone
  const now = useNow(1000, state.status !== 'connected' && !gone)

  useEffect(() => {
    const timer = setTimeout(() => setGraceOver(true), CONNECTING_GRACE_MS)
    return () => clearTimeout(timer)
  }, [])

  if (state.status === 'connected') return null
  if (state.status === 'connecting' && !graceOver && !gone) return null

  // A gone address gets no countdown: attempts go on slowly, but waiting will rarely help.
  if (gone) {
    return (
      <div className="connection-banner gone" role="alert" data-testid="connection-banner" data-state="gone" data-reason={gone}>
        <span className="connection-dot" aria-hidden="true" />
        <span>{t(gone === 'token-refused' ? 'connection.goneTokenRefused' : 'connection.goneNoAnswer')}</span>
        {state.retryAt && (
          <button type="button" className="btn btn-small" data-testid="connection-retry" onClick={() => monitor.reconnectNow()}>
            {t('connection.tryAgain')}
          </button>
        )}
      </div>
    )
  }

  const seconds = state.retryAt ? Math.max(0, Math.ceil((state.retryAt - now) / 1000)) : 0
  const text =
    state.status === 'connecting'
      ? t('connection.connecting')
      : seconds > 0
        ? t('connection.lostRetryIn', { s: seconds })
        : t('connection.lostRetrying')

  return (
    <div className={`connection-banner ${state.status}`} role="status" data-testid="connection-banner" data-state={state.status}>
      <span className="connection-dot" aria-hidden="true" />
      <span>{text}</span>
      {state.retryAt && seconds > 0 && (
        <button type="button" className="btn btn-small" data-testid="connection-retry" onClick={() => monitor.reconnectNow()}>
          {t('connection.retry')}
        </button>
      )}
    </div>
  )
}
