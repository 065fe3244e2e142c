import path from 'node:path'
import { createEventLog } from './event-log'
import { SYSTEM_PYTHON, spawnOwned, stopChild, type TestDisplay } from './xvfb'

/**
 * A GTK 3 window (test/fixtures/desktop/probe-window.py) that real input is aimed at. It reports
 * what it received as JSON lines; this wrapper collects them.
 */

const script = path.resolve(__dirname, '../fixtures/desktop/probe-window.py')

export type ProbeMode = 'colours' | 'entry' | 'canvas'
export interface ClientRect {
  /** Client area (inside the WM frame) in root/screen coordinates. */
  x: number
  y: number
  width: number
  height: number
}
export interface ProbeReady {
  event: 'ready'
  title: string
  mode: ProbeMode
  /** The X window id of the GTK toplevel (the client window, not openbox's frame). */
  xid: number
  client: ClientRect
}
export type ProbeEvent =
  | { event: 'press' | 'release' | 'double-press'; button: number; x_root: number; y_root: number; state: string[] }
  | { event: 'motion'; x_root: number; y_root: number; buttons: number[] }
  | { event: 'scroll'; direction: 'up' | 'down' | 'left' | 'right'; x_root: number; y_root: number }
  /** state: the modifiers held before this key went down/up (control, shift, alt, super, lock, mod2…). */
  | { event: 'key' | 'key-release'; keyval_name: string; state: string[] }
  | { event: 'text'; text: string }
  | { event: 'closed' }

export interface ProbeWindow {
  ready: ProbeReady
  /** Every event so far, in order (the ready line excluded). */
  events: ProbeEvent[]
  /**
   * The first event, past or future, for which pred(event, index) holds. To wait only for events
   * after some action, remember `events.length` before it and test `index >= before`.
   * Rejects after timeoutMs (or when the window process ends) listing the events seen.
   */
  waitFor(pred: (event: ProbeEvent, index: number) => boolean, timeoutMs?: number): Promise<ProbeEvent>
  /** The entry's contents after its last change (entry mode), or undefined before any change. */
  lastText(): string | undefined
  /** SIGTERM, then SIGKILL after 5 s; resolves when the process has gone. Idempotent. */
  close(): Promise<void>
}

export interface ProbeOptions {
  title: string
  mode: ProbeMode
  x?: number
  y?: number
  width?: number
  height?: number
}

const READY_TIMEOUT_MS = 15_000

export function openProbeWindow(display: TestDisplay, opts: ProbeOptions): Promise<ProbeWindow> {
  const args = [
    script,
    '--title', opts.title,
    '--mode', opts.mode,
    '--x', String(opts.x ?? 100),
    '--y', String(opts.y ?? 100),
    '--width', String(opts.width ?? 400),
    '--height', String(opts.height ?? 300)
  ]
  const child = spawnOwned(SYSTEM_PYTHON, ['-u', ...args], {
    // NO_AT_BRIDGE: no accessibility bus (dbus warnings); GDK_SCALE: one GTK pixel = one X pixel.
    env: { ...display.env, NO_AT_BRIDGE: '1', GDK_BACKEND: 'x11', GDK_SCALE: '1', GDK_DPI_SCALE: '1', GSETTINGS_BACKEND: 'memory' },
    stdio: ['ignore', 'pipe', 'pipe']
  })

  let stderr = ''
  let buffered = ''
  let ready: ProbeReady | undefined
  let onReady: ((ready: ProbeReady) => void) | undefined
  const log = createEventLog<ProbeEvent>(`probe window "${opts.title}"`, () => stderr.trim())
  const { events, waitFor } = log

  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8_000)))
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString()
    let newline: number
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline).trim()
      buffered = buffered.slice(newline + 1)
      if (line === '') continue
      let parsed: { event?: string }
      try {
        parsed = JSON.parse(line) as { event?: string }
      } catch {
        stderr += `\n[stdout, not JSON] ${line}`
        continue
      }
      if (parsed.event === 'ready') {
        ready = parsed as ProbeReady
        onReady?.(ready)
      } else {
        log.push(parsed as ProbeEvent)
      }
    }
  })

  let closing: Promise<void> | undefined
  const close = (): Promise<void> => (closing ??= stopChild(child))

  const lastText = (): string | undefined => {
    for (let i = events.length - 1; i >= 0; i--) {
      const event = events[i]
      if (event.event === 'text') return event.text
    }
    return undefined
  }

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void close()
      reject(new Error(`probe window "${opts.title}" was not ready within ${READY_TIMEOUT_MS / 1000} s. stderr:\n${stderr.trim()}`))
    }, READY_TIMEOUT_MS)
    onReady = (readyLine) => {
      clearTimeout(timer)
      resolve({ ready: readyLine, events, waitFor, lastText, close })
    }
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(new Error(`probe window "${opts.title}" could not start ${SYSTEM_PYTHON}: ${error.message}`))
      log.end(`could not start (${error.message})`)
    })
    // 'close', not 'exit': every line the process printed has been read by then.
    child.once('close', (code, signal) => {
      log.end(`exited (code ${code}, signal ${signal})`)
      if (!ready) {
        clearTimeout(timer)
        reject(new Error(`probe window "${opts.title}" ${log.ended()} before it was ready. stderr:\n${stderr.trim()}`))
      }
    })
  })
}
