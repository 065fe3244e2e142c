/**
 * Devices as the app offers them (docs/devices.md): one merged list from the USB, HID and serial
 * backends, each backend's state, hot-plug (the OS's events where it has them, a 1.5 s poll and
 * diff everywhere), and the serial sessions tools and the Devices panel open.
 */
import { errorMessage, type BackendStatus, type Device, type DeviceSnapshot, type Settings } from '../../shared'
import type { AppService } from '../lifecycle'
import { BackendUnavailableError, hidBackend, serialBackend, usbBackend, type DeviceBackend } from './backends'
import { mergeViews } from './merge'
import { SerialSessions, type PortOpener } from './serial-sessions'
import type { HidView, SerialView, UsbView } from './views'

export interface DeviceBackends {
  usb: DeviceBackend<UsbView>
  hid: DeviceBackend<HidView>
  serial: DeviceBackend<SerialView>
}

export interface DeviceServiceOptions {
  settings: () => Pick<Settings, 'serialPorts'>
  /** The backends (tests pass fakes fed with recorded descriptors); default the real ones. */
  backends?: Partial<DeviceBackends>
  /** How ports are opened (tests); default serialport. */
  openPort?: PortOpener
  pollMs?: number
}

export interface DevicesChange {
  snapshot: DeviceSnapshot
  added: string[]
  removed: string[]
}

export const DEFAULT_POLL_MS = 1_500

export class DeviceService implements AppService {
  readonly name = 'devices'
  readonly sessions: SerialSessions
  private readonly backends: DeviceBackends
  private last: DeviceSnapshot | null = null
  /** What the listeners were last told: a list() someone else asked for must not hide a change from them. */
  private announced: DeviceSnapshot | null = null
  private timer: ReturnType<typeof setInterval> | null = null
  private unwatch: Array<() => void> = []
  private readonly listeners = new Set<(change: DevicesChange) => void>()
  private listing: Promise<DeviceSnapshot> | null = null

  constructor(private readonly options: DeviceServiceOptions) {
    this.backends = {
      usb: options.backends?.usb ?? usbBackend(),
      hid: options.backends?.hid ?? hidBackend(),
      serial: options.backends?.serial ?? serialBackend({ extraPorts: () => options.settings().serialPorts })
    }
    this.sessions = new SerialSessions(options.openPort)
  }

  /** Every device now, merged, and each backend's state. Never throws: a failing backend is a status. */
  list(): Promise<DeviceSnapshot> {
    // Overlapping callers (the poll, the panel, a tool) share one listing.
    this.listing ??= this.collect().finally(() => (this.listing = null))
    return this.listing
  }

  /** The last listing without looking again (null before the first). */
  current(): DeviceSnapshot | null {
    return this.last
  }

  /** Plug and unplug as they happen; starts watching with the first listener, stops with the last. */
  onChange(listener: (change: DevicesChange) => void): () => void {
    this.listeners.add(listener)
    if (this.listeners.size === 1) this.startWatching()
    return () => {
      this.listeners.delete(listener)
      if (this.listeners.size === 0) this.stopWatching()
    }
  }

  /** Looks again now and tells the listeners what changed (the poll, the OS's events, a settings change). */
  async refresh(): Promise<DeviceSnapshot> {
    const snapshot = await this.list()
    const change = diff(this.announced, snapshot)
    if (change && this.listeners.size > 0) {
      this.announced = snapshot
      for (const listener of [...this.listeners]) listener(change)
    }
    return snapshot
  }

  settingsChanged(_next: Settings, patch: Partial<Settings>): void {
    if (patch.serialPorts !== undefined && this.listeners.size > 0) void this.refresh()
  }

  async conversationClosed(conversationId: string): Promise<void> {
    await this.sessions.closeOwnedBy(conversationId)
  }

  async shutdown(): Promise<void> {
    this.stopWatching()
    this.listeners.clear()
    await this.sessions.closeAll()
  }

  private async collect(): Promise<DeviceSnapshot> {
    const statuses: BackendStatus[] = []
    const views = await Promise.all(
      (['usb', 'hid', 'serial'] as const).map(async (kind) => {
        try {
          const found = await this.backends[kind].list()
          statuses.push({ backend: kind, available: true })
          return found
        } catch (error) {
          statuses.push(
            error instanceof BackendUnavailableError
              ? {
                  backend: kind,
                  available: false,
                  why: error.why,
                  ...(error.fix ? { fix: error.fix } : {}),
                  ...(error.texts
                    ? { whyText: error.texts.why, ...(error.texts.fix ? { fixText: error.texts.fix } : {}), ...(error.texts.fixCommand ? { fixCommand: error.texts.fixCommand } : {}) }
                    : {})
                }
              : { backend: kind, available: false, why: errorMessage(error) }
          )
          return []
        }
      })
    )
    const order = { usb: 0, hid: 1, serial: 2 }
    statuses.sort((a, b) => order[a.backend] - order[b.backend])
    const devices = mergeViews({ usb: views[0] as UsbView[], hid: views[1] as HidView[], serial: views[2] as SerialView[] })
    const snapshot: DeviceSnapshot = { devices, backends: statuses, at: Date.now() }
    this.last = snapshot
    return snapshot
  }

  private startWatching(): void {
    void this.refresh()
    this.timer = setInterval(() => void this.refresh(), this.options.pollMs ?? DEFAULT_POLL_MS)
    this.timer.unref?.()
    for (const backend of Object.values(this.backends)) {
      const unwatch = backend.watch?.(() => void this.refresh())
      if (unwatch) this.unwatch.push(unwatch)
    }
  }

  private stopWatching(): void {
    this.announced = null
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    for (const unwatch of this.unwatch.splice(0)) unwatch()
  }
}

/** What was added and removed between two listings (by id), or null when nothing changed. */
function diff(before: DeviceSnapshot | null, after: DeviceSnapshot): DevicesChange | null {
  const was = new Set(before?.devices.map((d) => d.id) ?? [])
  const now = new Set(after.devices.map((d) => d.id))
  const added = [...now].filter((id) => !was.has(id))
  const removed = [...was].filter((id) => !now.has(id))
  const backendsChanged = JSON.stringify(before?.backends ?? []) !== JSON.stringify(after.backends)
  const devicesChanged = JSON.stringify(before?.devices ?? []) !== JSON.stringify(after.devices)
  if (!before || added.length > 0 || removed.length > 0 || backendsChanged || devicesChanged) return { snapshot: after, added, removed }
  return null
}

export type { Device }
