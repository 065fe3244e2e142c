/** Connection state of the transport, for the banner. IPC is always `connected`. */
export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected'

/**
 * Why reconnecting looks hopeless, so the banner says "open the address DeskClaw printed" instead
 * of counting down for ever:
 * - `token-refused`: something answers at this address but refuses this page's token (DeskClaw was
 *   restarted on the same port, with a new token);
 * - `no-answer`: nothing has answered at this address for several attempts (DeskClaw was closed,
 *   or restarted on another port).
 */
export type AddressGoneReason = 'token-refused' | 'no-answer'

export interface ConnectionState {
  status: ConnectionStatus
  /** When the next reconnect attempt happens (ms since epoch), while not connected. */
  retryAt: number | null
  /** Consecutive failed attempts since the last successful connection. */
  attempts: number
  /** Set while not connected once this address looks gone for good (attempts go on, slowly). */
  addressGone: AddressGoneReason | null
}

export interface ConnectionMonitor {
  getState(): ConnectionState
  subscribe(listener: (state: ConnectionState) => void): () => void
  /** Skip the backoff wait and try now (no-op when connected or for IPC). */
  reconnectNow(): void
}

const CONNECTED: ConnectionState = { status: 'connected', retryAt: null, attempts: 0, addressGone: null }

export const alwaysConnected: ConnectionMonitor = {
  getState: () => CONNECTED,
  subscribe: () => () => {},
  reconnectNow: () => {}
}
