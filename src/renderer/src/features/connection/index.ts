/** The banner shown while the WebSocket to DeskClaw is down, and the connection state for others (the composer). */
export { ConnectionBanner } from './ConnectionBanner'
export { useConnectionState } from './useConnectionState'
