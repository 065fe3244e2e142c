/** The banner shown while the WebSocket to DeskClaw is down. */
export { ConnectionBanner } from './ConnectionBanner'
