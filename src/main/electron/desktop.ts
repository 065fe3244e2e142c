/**
 * Desktop automation in the Electron shell (docs/desktop.md): the driver runs in a utilityProcess,
 * the clipboard is Electron's (every format saved and restored around a paste), and a global
 * shortcut stops desktop control — registered only while a run holds the keyboard and mouse, so
 * it never takes the keys from other apps the rest of the time.
 */
import { clipboard, ClipboardItem, globalShortcut, utilityProcess } from 'electron'
import type { DeskclawApp, DesktopHost } from '../app'
import type { ClipboardSnapshot, DesktopClipboard, DriverExit, DriverLauncher } from '../desktop'

const STDERR_TAIL = 2_000

const utilityProcessDriver: DriverLauncher = ({ entry, env }) => {
  const child = utilityProcess.fork(entry, [], { env, stdio: ['ignore', 'ignore', 'pipe'], serviceName: 'DeskClaw desktop driver' })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL)))
  let exited: DriverExit | null = null
  const exitListeners: Array<(exit: DriverExit) => void> = []
  child.on('exit', (code) => {
    exited = { code, signal: null }
    for (const listener of exitListeners) listener(exited)
  })
  return {
    send: (message) => {
      if (!exited) child.postMessage(message)
    },
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => (exited ? listener(exited) : exitListeners.push(listener)),
    kill: () => {
      if (!exited) child.kill()
    },
    stderrTail: () => stderr.trim(),
    pid: child.pid
  }
}

const electronClipboard: DesktopClipboard = {
  readText: () => clipboard.readText(),
  writeText: (text) => clipboard.writeText(text),
  async save(): Promise<ClipboardSnapshot> {
    // Every item in every type it offers (text, HTML, images, bookmarks), copied out before the paste.
    const items = await clipboard.read()
    const copies = await Promise.all(
      items.map(async (item) => new ClipboardItem(Object.fromEntries(await Promise.all(item.types.map(async (type) => [type, await item.getType(type)] as const)))))
    )
    const types = [...new Set(items.flatMap((item) => item.types))]
    return {
      description: types.length === 0 ? 'nothing' : types.join(', '),
      restore: async () => (copies.length === 0 ? clipboard.clear() : clipboard.write(copies))
    }
  }
}

/** What DeskclawApp needs from Electron for the desktop; `shortcutActive` is read by the banner. */
export function electronDesktopHost(): DesktopHost & { shortcut: { active: boolean } } {
  const shortcut = { active: false }
  return { clipboard: () => electronClipboard, launcher: utilityProcessDriver, shortcutActive: () => shortcut.active, shortcut }
}

/** Registers the stop shortcut while a run controls the desktop; returns the detach. */
export function setupDesktopStop(deskclaw: DeskclawApp, shortcut: { active: boolean }): () => void {
  let registered: string | null = null
  const unregister = () => {
    if (registered) globalShortcut.unregister(registered)
    registered = null
    shortcut.active = false
  }
  const sync = () => {
    const holder = deskclaw.desktop.controlling()
    const wanted = deskclaw.settings().desktopStopShortcut
    if (holder && registered !== wanted) {
      unregister()
      try {
        if (globalShortcut.register(wanted, () => deskclaw.desktop.stop('shortcut'))) registered = wanted
        else console.warn(`[deskclaw] the stop shortcut ${wanted} is taken by another app; use the Stop button`)
      } catch (error) {
        console.warn(`[deskclaw] the stop shortcut "${wanted}" is not a valid accelerator: ${(error as Error).message}`)
      }
      shortcut.active = registered !== null
    } else if (!holder && registered) {
      unregister()
    } else return
    deskclaw.events.publish({ kind: 'desktop_control', control: deskclaw.desktopControl() })
  }
  const offControl = deskclaw.desktop.onControlChange(() => sync())
  const offSettings = deskclaw.events.subscribe((event) => {
    if (event.kind === 'settings_changed') sync()
  })
  return () => {
    offControl()
    offSettings()
    unregister()
  }
}
