/**
 * The driver's side of its link to the app: Electron's `process.parentPort` in a utilityProcess,
 * Node's IPC channel under `child_process.fork` (docs/desktop.md, "The driver").
 */
import type { DriverMessage } from '../protocol'

interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void
  postMessage(message: unknown): void
}

export interface ParentChannel {
  send(message: DriverMessage): void
  onMessage(listener: (message: unknown) => void): void
}

export function connectToParent(): ParentChannel {
  const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort
  if (parentPort) {
    return {
      send: (message) => parentPort.postMessage(message),
      onMessage: (listener) => parentPort.on('message', (event) => listener(event.data))
    }
  }
  if (!process.send) throw new Error('the desktop driver must be started by DeskClaw (no parent channel)')
  // The app going away must take the driver with it.
  process.on('disconnect', () => process.exit(0))
  return {
    send: (message) => process.send?.(message),
    onMessage: (listener) => process.on('message', listener)
  }
}
