/**
 * Desktop automation in the Electron shell (docs/desktop.md): the driver runs in a utilityProcess,
 * the clipboard is Electron's (every format saved and restored around a paste), and a global
 * shortcut stops desktop control — registered only while a run holds the keyboard and mouse, so
 * it never takes the keys from other apps the rest of the time.
 */
import { clipboard, globalShortcut, utilityProcess } from 'electron'
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
  readText: async () => clipboard.readText(),
  writeText: async (text) => clipboard.writeText(text),
  async save(): Promise<ClipboardSnapshot> {
    const formats = clipboard.availableFormats()
    if (formats.length === 0) return { description: 'nothing', restore: async () => clipboard.clear() }
    const text = clipboard.readText()
    const html = clipboard.readHTML()
    const rtf = clipboard.readRTF()
    const image = clipboard.readImage()
    const bookmark = process.platform === 'linux' ? null : clipboard.readBookmark()
    return {
      description: image.isEmpty() ? `text (${[...text].length} characters)` : 'an image',
      restore: async () =>
        clipboard.write({
          text,
          ...(html ? { html } : {}),
          ...(rtf ? { rtf } : {}),
          ...(image.isEmpty() ? {} : { image }),
          ...(bookmark?.url ? { bookmark: bookmark.title } : {})
        })
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
