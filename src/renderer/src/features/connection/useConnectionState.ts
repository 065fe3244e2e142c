import { useMemo, useSyncExternalStore } from 'react'
import { type ConnectionState, getConnectionMonitor } from '../../bridge'

/** The transport's connection state, re-rendering on every change (always connected under Electron's IPC). */
export function useConnectionState(): ConnectionState {
  const monitor = getConnectionMonitor()
  const [subscribe, getState] = useMemo(
    () => [monitor.subscribe.bind(monitor), monitor.getState.bind(monitor)] as const,
    [monitor]
  )
  return useSyncExternalStore(subscribe, getState)
}
