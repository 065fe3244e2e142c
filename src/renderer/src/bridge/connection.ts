/** Connection state of the transport, for the banner. IPC is always `connected`. */
export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected'

export interface ConnectionState {
  status: ConnectionStatus
  /** When the next reconnect attempt happens (ms since epoch), while disconnected. */
  retryAt: number | null
  /** Consecutive failed attempts since the last successful connection. */
  attempts: number
}

export interface ConnectionMonitor {
  getState(): ConnectionState
  subscribe(listener: (state: ConnectionState) => void): () => void
  /** Skip the backoff wait and try now (no-op when connected or for IPC). */
  reconnectNow(): void
}

const CONNECTED: ConnectionState = { status: 'connected', retryAt: null, attempts: 0 }

export const alwaysConnected: ConnectionMonitor = {
  getState: () => CONNECTED,
  subscribe: () => () => {},
  reconnectNow: () => {}
}
