/**
 * The IPC transport: the renderer's calls arrive on IPC_INVOKE_CHANNEL (from trusted senders only)
 * and go through the same dispatcher as the web host; every bus event goes out to every window on
 * IPC_EVENT_CHANNEL (docs/architecture.md).
 */
import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron'
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, type BridgeResult } from '../../shared'
import type { DeskclawApp } from '../app'
import { createBridgeHandlers, dispatchCall, isTrustedSender } from '../bridge'
import { trustedOrigins } from './renderer-source'

function senderAllowed(event: IpcMainInvokeEvent): boolean {
  return isTrustedSender(
    {
      senderType: event.sender.getType(),
      frameUrl: event.senderFrame?.url ?? null,
      isTopFrame: event.senderFrame?.parent === null
    },
    trustedOrigins
  )
}

/** Serves the bridge over IPC and forwards bus events to the windows; returns the teardown. */
export function setupIpc(deskclaw: DeskclawApp): () => void {
  const table = createBridgeHandlers(deskclaw, 'ipc')
  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, name: unknown, input: unknown): Promise<BridgeResult<unknown>> => {
    if (!senderAllowed(event)) return { ok: false, error: { code: 'FORBIDDEN', message: 'Sender not allowed.' } }
    return dispatchCall(table, String(name), input)
  })
  const unsubscribe = deskclaw.events.subscribe((event) => {
    for (const window of BrowserWindow.getAllWindows()) window.webContents.send(IPC_EVENT_CHANNEL, event)
  })
  return () => {
    unsubscribe()
    ipcMain.removeHandler(IPC_INVOKE_CHANNEL)
  }
}
