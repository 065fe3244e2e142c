/**
 * The "DeskClaw is controlling your desktop" banner's state (docs/desktop.md). Made by a factory
 * that is handed the bridge, so it runs under plain Node in the unit tests (stores/desktop.ts
 * makes the app's one with the real bridge).
 */
import { create } from 'zustand'
import type { BridgeResult, DeskclawApi, DesktopControl, Settings } from '../../../shared/bridge'

export interface DesktopState {
  /** Who controls the keyboard and mouse and how to stop it; null until `desktop.status` answered. */
  control: DesktopControl | null
  /** True while a `desktop.stop` is on its way (the Stop button is disabled meanwhile). */
  stopping: boolean
  /** Asks `desktop.status` (on connect, and when something may have been missed); a failed answer keeps what we had. */
  load(): Promise<void>
  /** A `desktop_control` event from main. */
  apply(control: DesktopControl): void
  /** settings_changed: the stop shortcut may be another now; main says which one is registered. */
  applySettings(settings: Settings): void
  /** Stops desktop control now (the banner's button and the shortcut pressed in the page). */
  stop(): Promise<BridgeResult<{ stopped: boolean }>>
}

export function createDesktopStore(api: () => Pick<DeskclawApi, 'invoke'>) {
  /** Only the newest answer counts when two loads overlap. */
  let loadToken = 0

  return create<DesktopState>((set, get) => ({
    control: null,
    stopping: false,

    async load() {
      const token = ++loadToken
      const result = await api().invoke('desktop.status', {})
      if (token !== loadToken || !result.ok) return
      set({ control: result.data })
    },

    apply(control) {
      set({ control })
    },

    applySettings(settings) {
      const control = get().control
      if (control && control.stopShortcut !== settings.desktopStopShortcut) void get().load()
    },

    async stop() {
      set({ stopping: true })
      const result = await api().invoke('desktop.stop', {})
      set({ stopping: false })
      // Nothing was stopped: the banner is stale (an event missed); ask again.
      if (result.ok && !result.data.stopped) void get().load()
      return result
    }
  }))
}
