/**
 * The renderer's door to main: one `DeskclawApi`, from the Electron preload (`window.deskclaw`)
 * or, when served by `deskclaw web`, from a WebSocket client. Callers cannot tell them apart;
 * `getConnectionMonitor()` tells the banner whether the transport is up.
 */
import type { DeskclawApi } from '../../../shared/bridge'
import { alwaysConnected, type ConnectionMonitor } from './connection'
import { takeBridgeToken, windowTokenPlace } from './token'
import { WebSocketBridgeClient, bridgeUrl } from './websocket-client'

export type { AddressGoneReason, ConnectionMonitor, ConnectionState, ConnectionStatus } from './connection'
export { WebSocketBridgeClient, bridgeUrl, bridgeUrlFromLocation } from './websocket-client'
export { takeBridgeToken, windowTokenPlace, type TokenPlace } from './token'

let api: DeskclawApi | null = null
let monitor: ConnectionMonitor = alwaysConnected
let token = ''

export function getDeskclawApi(): DeskclawApi {
  if (api) return api
  if (window.deskclaw) {
    api = window.deskclaw
  } else {
    // The token leaves the address bar here; the client keeps the URL for every reconnect.
    token = takeBridgeToken(windowTokenPlace())
    const client = new WebSocketBridgeClient({ url: bridgeUrl(window.location, token) })
    api = client
    monitor = client
  }
  return api
}

/**
 * The web host's token this page connected with ('' in Electron), from memory: for a link that
 * opens another page of the UI in a new tab (which drops it from its address bar in turn).
 */
export function getBridgeToken(): string {
  getDeskclawApi()
  return token
}

export function getConnectionMonitor(): ConnectionMonitor {
  getDeskclawApi()
  return monitor
}
