/**
 * The renderer's door to main: one `DeskclawApi`, from the Electron preload (`window.deskclaw`)
 * or, when served by `deskclaw web`, from a WebSocket client. Callers cannot tell them apart;
 * `getConnectionMonitor()` tells the banner whether the transport is up.
 */
import type { DeskclawApi } from '../../../shared/bridge'
import { alwaysConnected, type ConnectionMonitor } from './connection'
import { WebSocketBridgeClient, bridgeUrlFromLocation } from './websocket-client'

export type { ConnectionMonitor, ConnectionState, ConnectionStatus } from './connection'
export { WebSocketBridgeClient, bridgeUrlFromLocation } from './websocket-client'

let api: DeskclawApi | null = null
let monitor: ConnectionMonitor = alwaysConnected

export function getDeskclawApi(): DeskclawApi {
  if (api) return api
  if (window.deskclaw) {
    api = window.deskclaw
  } else {
    const client = new WebSocketBridgeClient({ url: bridgeUrlFromLocation(window.location) })
    api = client
    monitor = client
  }
  return api
}

export function getConnectionMonitor(): ConnectionMonitor {
  getDeskclawApi()
  return monitor
}
