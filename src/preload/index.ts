/**
 * Exposes exactly the bridge contract as window.deskclaw — two functions, nothing raw
 * (no ipcRenderer, no process.env). Sandboxed: it may only import 'electron' and type-only modules.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { BridgeEvent, DeskclawApi } from '../shared/bridge'
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../shared/channels'

const api: DeskclawApi = {
  invoke: (name, input) => ipcRenderer.invoke(IPC_INVOKE_CHANNEL, name, input),
  onEvent: (listener) => {
    const handler = (_event: IpcRendererEvent, payload: BridgeEvent): void => listener(payload)
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler)
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler)
    }
  }
}

contextBridge.exposeInMainWorld('deskclaw', api)
