/**
 * The Devices panel's state (docs/devices.md): the merged device list and each backend's state
 * (`devices.list`, kept live by `devices_changed`), and the panel's serial console — one port at
 * a time, opened by the user (`serial.open` / `serial.write` / `serial.close`), fed by
 * `serial_data` and ended by `serial_closed`. Made by a factory that is handed the bridge, so it
 * runs under plain Node in the unit tests (stores/devices.ts makes the app's one with the real bridge).
 */
import { create } from 'zustand'
import type { BridgeResult, DeskclawApi, DeviceSnapshot, SerialOptions } from '../../../shared/bridge'
import type { AppErrorShape } from '../../../shared/errors'

export type LineEnding = SerialOptions['lineEnding']

/** What each line ending choice appends to a sent line. */
export const LINE_ENDINGS: Readonly<Record<LineEnding, string>> = { none: '', lf: '\n', cr: '\r', crlf: '\r\n' }
export const LINE_ENDING_CHOICES: readonly LineEnding[] = ['none', 'lf', 'cr', 'crlf']
/** The usual rates (74880: the ESP8266 boot ROM). */
export const BAUD_RATES: readonly number[] = [
  300, 1200, 2400, 4800, 9600, 19_200, 38_400, 57_600, 74_880, 115_200, 230_400, 460_800, 921_600, 1_000_000, 2_000_000
]
export const DEFAULT_BAUD_RATE = 115_200
export const DEFAULT_LINE_ENDING: LineEnding = 'crlf'
/** How long a newly plugged device stays highlighted. */
export const FRESH_MS = 4000
/** The console keeps about this many characters; older output is dropped. */
export const CONSOLE_MAX_CHARS = 200_000

export type ConsoleStatus = 'idle' | 'opening' | 'open' | 'closing' | 'closed' | 'disconnected' | 'failed'

export type ConsoleEntry =
  | { id: number; kind: 'in'; text: string }
  | { id: number; kind: 'out'; text: string }
  | { id: number; kind: 'info'; code: 'opened'; baudRate: number }
  | { id: number; kind: 'info'; code: 'closed' | 'disconnected'; reason?: string }
  | { id: number; kind: 'info'; code: 'writeFailed'; error: AppErrorShape }

type NewEntry = ConsoleEntry extends infer E ? (E extends ConsoleEntry ? Omit<E, 'id'> : never) : never

export interface SerialConsole {
  /** The port this console is for. */
  path: string
  sessionId: string | null
  status: ConsoleStatus
  baudRate: number
  lineEnding: LineEnding
  entries: ConsoleEntry[]
  /** Why the last open failed. */
  error: AppErrorShape | null
  /** What main said when the port closed by itself (serial_closed's reason). */
  reason: string | null
  /** The last chunk received ended with CR: a LF at the start of the next one belongs to it. */
  pendingCR: boolean
  /** The start of an escape sequence the last chunk ended with. */
  held: string
}

type SerialDataEvent = { sessionId: string; text: string }
type SerialClosedEvent = { sessionId: string; path: string; disconnected: boolean; reason?: string }
type DevicesChangedEvent = { snapshot: DeviceSnapshot; added: string[]; removed: string[] }

export interface DevicesState {
  snapshot: DeviceSnapshot | null
  loadError: AppErrorShape | null
  /** Device ids plugged in a moment ago (highlighted for FRESH_MS). */
  fresh: string[]
  /** The console, when the panel shows one. */
  console: SerialConsole | null
  /** Asks `devices.list`; a failed answer keeps the list we had. */
  load(): Promise<void>
  /** A `devices_changed` event. */
  applyChanged(event: DevicesChangedEvent): void
  /** Shows the console for a port (closing the session of another port first). */
  showConsole(path: string): void
  /** Closes the session, if any, and hides the console. */
  hideConsole(): Promise<void>
  setBaudRate(baudRate: number): void
  setLineEnding(lineEnding: LineEnding): void
  /** Opens the console's port. */
  open(): Promise<BridgeResult<{ sessionId: string }> | null>
  /** Closes the console's port (the console stays, with what it showed). */
  close(): Promise<void>
  /** Sends a line with the chosen line ending; echoed in the output. */
  send(line: string): Promise<BridgeResult<{ written: number }> | null>
  clearOutput(): void
  applySerialData(event: SerialDataEvent): void
  applySerialClosed(event: SerialClosedEvent): void
}

/** An escape sequence cut off at the end of a chunk (the rest comes with the next one). */
// eslint-disable-next-line no-control-regex
const PARTIAL_ESCAPE = /\u001b(?:\[[0-?]*[ -/]*|\][^\u0007\u001b]*)?$/
// eslint-disable-next-line no-control-regex
const ESCAPE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g

/**
 * Received text as shown: CRLF and lone CR as line breaks, terminal escape sequences (colours,
 * cursor moves) left out, other control characters written as \xNN. `state` carries what a chunk
 * boundary cut: a CR whose LF may follow, the start of an escape sequence.
 */
export function displayReceived(text: string, state: { pendingCR: boolean; held: string }): { text: string; pendingCR: boolean; held: string } {
  let input = state.held + text
  let held = ''
  const partial = PARTIAL_ESCAPE.exec(input)
  if (partial && partial[0].length <= 64) {
    held = partial[0]
    input = input.slice(0, partial.index)
  }
  if (state.pendingCR && input.startsWith('\n')) input = input.slice(1)
  const shown = input
    .replace(ESCAPE, '')
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
  return { text: shown, pendingCR: input.length > 0 ? input.endsWith('\r') : state.pendingCR, held }
}

function entriesSize(entries: readonly ConsoleEntry[]): number {
  let size = 0
  for (const entry of entries) size += 'text' in entry ? entry.text.length : 40
  return size
}

/** Drops the oldest entries (and the start of a huge first one) beyond CONSOLE_MAX_CHARS. */
function trimEntries(entries: ConsoleEntry[]): ConsoleEntry[] {
  let size = entriesSize(entries)
  if (size <= CONSOLE_MAX_CHARS) return entries
  const kept = [...entries]
  while (kept.length > 1 && size > CONSOLE_MAX_CHARS) {
    const first = kept.shift()!
    size -= 'text' in first ? first.text.length : 40
  }
  const only = kept[0]
  if (kept.length === 1 && only && 'text' in only && only.text.length > CONSOLE_MAX_CHARS) {
    kept[0] = { ...only, text: only.text.slice(-CONSOLE_MAX_CHARS) }
  }
  return kept
}

/** The most ports settings.serialPorts holds (SettingsSchema). */
export const MAX_ADDED_PORTS = 50
export const MAX_PORT_PATH = 4096

function newConsole(path: string, previous: SerialConsole | null): SerialConsole {
  return {
    path,
    sessionId: null,
    status: 'idle',
    baudRate: previous?.baudRate ?? DEFAULT_BAUD_RATE,
    lineEnding: previous?.lineEnding ?? DEFAULT_LINE_ENDING,
    entries: [],
    error: null,
    reason: null,
    pendingCR: false,
    held: ''
  }
}

export function createDevicesStore(api: () => Pick<DeskclawApi, 'invoke'>) {
  /** Only the newest answer counts when two loads overlap. */
  let loadToken = 0
  let nextEntryId = 1
  /** Events for sessions not known yet, kept while a `serial.open` is on its way (its answer may come after them). */
  let opening = 0
  let early: Array<{ kind: 'data'; event: SerialDataEvent } | { kind: 'closed'; event: SerialClosedEvent }> = []

  return create<DevicesState>((set, get) => {
    /** Changes the console if it is still the one for `path` (and, when given, that session). */
    const updateConsole = (match: { path?: string; sessionId?: string }, change: (c: SerialConsole) => Partial<SerialConsole>) => {
      const current = get().console
      if (!current) return
      if (match.path !== undefined && current.path !== match.path) return
      if (match.sessionId !== undefined && current.sessionId !== match.sessionId) return
      set({ console: { ...current, ...change(current) } })
    }

    const push = (c: SerialConsole, entry: NewEntry): ConsoleEntry[] =>
      trimEntries([...c.entries, { ...entry, id: nextEntryId++ } as ConsoleEntry])

    const closeSession = async (sessionId: string) => {
      // The port may be gone already; nothing to tell anyone then.
      await api().invoke('serial.close', { sessionId })
    }

    const takeSnapshot = (snapshot: DeviceSnapshot) => {
      const current = get().snapshot
      if (current && snapshot.at < current.at) return false
      set({ snapshot, loadError: null })
      return true
    }

    return {
      snapshot: null,
      loadError: null,
      fresh: [],
      console: null,

      async load() {
        const token = ++loadToken
        const result = await api().invoke('devices.list', {})
        if (token !== loadToken) return
        if (result.ok) takeSnapshot(result.data)
        else set({ loadError: result.error })
      },

      applyChanged(event) {
        const before = get().snapshot
        if (!takeSnapshot(event.snapshot)) return
        const present = new Set(event.snapshot.devices.map((device) => device.id))
        // New to this page: main's first listing after it starts watching calls everything added.
        const known = new Set(before?.devices.map((device) => device.id) ?? [])
        const added = before ? event.added.filter((id) => present.has(id) && !known.has(id)) : []
        const fresh = get().fresh.filter((id) => present.has(id) && !added.includes(id))
        set({ fresh: [...fresh, ...added] })
        if (added.length > 0) {
          setTimeout(() => set({ fresh: get().fresh.filter((id) => !added.includes(id)) }), FRESH_MS)
        }
      },

      showConsole(path) {
        const current = get().console
        if (current?.path === path) return
        if (current?.sessionId) void closeSession(current.sessionId)
        set({ console: newConsole(path, current) })
      },

      async hideConsole() {
        const current = get().console
        set({ console: null })
        if (current?.sessionId) await closeSession(current.sessionId)
      },

      setBaudRate(baudRate) {
        updateConsole({}, () => ({ baudRate }))
      },

      setLineEnding(lineEnding) {
        updateConsole({}, () => ({ lineEnding }))
      },

      async open() {
        const current = get().console
        if (!current || current.status === 'opening' || current.status === 'open' || current.status === 'closing') return null
        const { path, baudRate } = current
        set({ console: { ...current, status: 'opening', error: null, reason: null, sessionId: null, pendingCR: false, held: '' } })
        opening++
        // The console adds the line ending itself (it can change while the port is open): main adds none.
        const result = await api().invoke('serial.open', { path, options: { baudRate, lineEnding: 'none' } })
        opening--
        const held = early
        if (opening === 0) early = []
        const now = get().console
        if (!now || now.path !== path || now.status !== 'opening') {
          // The console was hidden or moved to another port meanwhile: this session has no one to show it.
          if (result.ok) void closeSession(result.data.sessionId)
          return result
        }
        if (!result.ok) {
          set({ console: { ...now, status: 'failed', error: result.error } })
          return result
        }
        const { sessionId } = result.data
        set({
          console: { ...now, status: 'open', sessionId, entries: push(now, { kind: 'info', code: 'opened', baudRate }) }
        })
        for (const item of held) {
          if (item.event.sessionId !== sessionId) continue
          if (item.kind === 'data') get().applySerialData(item.event)
          else get().applySerialClosed(item.event)
        }
        return result
      },

      async close() {
        const current = get().console
        if (!current?.sessionId || current.status !== 'open') return
        const { sessionId } = current
        set({ console: { ...current, status: 'closing' } })
        await closeSession(sessionId)
        // serial_closed normally said so already; if it never comes, the port is closed anyway.
        updateConsole({ sessionId }, (c) =>
          c.status === 'closing'
            ? { status: 'closed', sessionId: null, entries: push(c, { kind: 'info', code: 'closed' }) }
            : {}
        )
      },

      async send(line) {
        const current = get().console
        if (!current?.sessionId || current.status !== 'open') return null
        const { sessionId } = current
        set({ console: { ...current, entries: push(current, { kind: 'out', text: line }) } })
        const result = await api().invoke('serial.write', { sessionId, text: line + LINE_ENDINGS[current.lineEnding] })
        if (!result.ok) {
          updateConsole({ sessionId }, (c) => ({ entries: push(c, { kind: 'info', code: 'writeFailed', error: result.error }) }))
        }
        return result
      },

      clearOutput() {
        updateConsole({}, () => ({ entries: [] }))
      },

      applySerialData(event) {
        const current = get().console
        if (!current || current.sessionId !== event.sessionId) {
          if (opening > 0) early.push({ kind: 'data', event })
          return
        }
        const shown = displayReceived(event.text, current)
        if (shown.text === '') {
          set({ console: { ...current, pendingCR: shown.pendingCR, held: shown.held } })
          return
        }
        const last = current.entries[current.entries.length - 1]
        const entries =
          last?.kind === 'in'
            ? trimEntries([...current.entries.slice(0, -1), { ...last, text: last.text + shown.text }])
            : push(current, { kind: 'in', text: shown.text })
        set({ console: { ...current, entries, pendingCR: shown.pendingCR, held: shown.held } })
      },

      applySerialClosed(event) {
        const current = get().console
        if (!current || current.sessionId !== event.sessionId) {
          if (opening > 0) early.push({ kind: 'closed', event })
          return
        }
        const code = event.disconnected ? 'disconnected' : 'closed'
        set({
          console: {
            ...current,
            status: code,
            sessionId: null,
            reason: event.reason ?? null,
            entries: push(current, { kind: 'info', code, ...(event.reason ? { reason: event.reason } : {}) })
          }
        })
      }
    }
  })
}
