import { useEffect, useMemo, useState, useSyncExternalStore } from 'react'
import { getConnectionMonitor } from '../../bridge'
import { useT } from '../../i18n'
import { useNow } from '../common'

/** Grace period before "Connecting…" shows, so a normal start-up does not flash a banner. */
const CONNECTING_GRACE_MS = 1500

export function ConnectionBanner() {
  const t = useT()
  const monitor = getConnectionMonitor()
  const [subscribe, getState] = useMemo(
    () => [monitor.subscribe.bind(monitor), monitor.getState.bind(monitor)] as const,
    [monitor]
  )
  const state = useSyncExternalStore(subscribe, getState)
  const [graceOver, setGraceOver] = useState(false)
  const now = useNow(1000, state.status !== 'connected')

  useEffect(() => {
    const timer = setTimeout(() => setGraceOver(true), CONNECTING_GRACE_MS)
    return () => clearTimeout(timer)
  }, [])

  if (state.status === 'connected') return null
  if (state.status === 'connecting' && !graceOver) return null

  const seconds = state.retryAt ? Math.max(0, Math.ceil((state.retryAt - now) / 1000)) : 0
  const text =
    state.status === 'connecting'
      ? t('connection.connecting')
      : seconds > 0
        ? t('connection.lostRetryIn', { s: seconds })
        : t('connection.lostRetrying')

  return (
    <div className={`connection-banner ${state.status}`} role="status" data-testid="connection-banner">
      <span className="connection-dot" aria-hidden="true" />
      <span>{text}</span>
      {state.retryAt && seconds > 0 && (
        <button type="button" className="btn btn-small" onClick={() => monitor.reconnectNow()}>
          {t('connection.retry')}
        </button>
      )}
    </div>
  )
}
