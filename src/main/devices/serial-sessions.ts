/**
 * Open serial ports (docs/devices.md, "Serial sessions"): each belongs to a conversation (or to the
 * Devices panel's console), buffers what arrives until it is read, and is closed when its owner
 * ends or the app quits. A device that goes away (unplugged, socat killed) closes its session as
 * `disconnected`, fails a read in progress and frees the handle.
 */
import { errorMessage, newId, type SerialOptions } from '../../shared'

/** What a session is opened on: the real serialport stream, or any object that behaves like it (tests). */
export interface SerialPortLike {
  readonly isOpen: boolean
  write(data: Buffer, callback?: (error?: Error | null) => void): boolean
  drain(callback: (error?: Error | null) => void): void
  close(callback?: (error?: Error | null) => void): void
  on(event: 'data', listener: (data: Buffer) => void): this
  on(event: 'close', listener: (error?: (Error & { disconnected?: boolean }) | null) => void): this
  on(event: 'error', listener: (error: Error) => void): this
}

export type PortOpener = (path: string, options: SerialOptions) => Promise<SerialPortLike>

export type SessionOwner = { kind: 'conversation'; conversationId: string } | { kind: 'console' }

export interface SerialSession {
  id: string
  path: string
  options: SerialOptions
  owner: SessionOwner
  openedAt: number
}

export interface ReadResult {
  data: Buffer
  /** Why the read ended. */
  reason: 'delimiter' | 'bytes' | 'timeout' | 'closed'
}

export class SerialSessionError extends Error {}

/** At most this much unread data is kept per session; older bytes are dropped (and said). */
const BUFFER_LIMIT = 1024 * 1024

interface Live {
  session: SerialSession
  port: SerialPortLike
  buffer: Buffer
  dropped: number
  closed: { disconnected: boolean; reason?: string } | null
  waiters: Set<() => void>
}

export const LINE_ENDINGS: Record<SerialOptions['lineEnding'], string> = { none: '', lf: '\n', cr: '\r', crlf: '\r\n' }

/** Text as people and models write it for a device: `\r`, `\n`, `\t`, `\\` and `\xNN` escapes are honoured (`AT\r\n`). */
export function unescapeSerialText(text: string): string {
  return text.replace(/\\(r|n|t|\\|x[0-9a-fA-F]{2})/g, (_m, escape: string) =>
    escape === 'r' ? '\r' : escape === 'n' ? '\n' : escape === 't' ? '\t' : escape === '\\' ? '\\' : String.fromCharCode(parseInt(escape.slice(1), 16))
  )
}

/** serialport's stream, opened with an exclusive lock so a port open elsewhere is refused. */
export const openSerialPort: PortOpener = async (path, options) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { SerialPort } = require('serialport') as typeof import('serialport')
  return new Promise((resolve, reject) => {
    const port = new SerialPort(
      { path, baudRate: options.baudRate, dataBits: options.dataBits, parity: options.parity, stopBits: options.stopBits, lock: true, autoOpen: true },
      (error) => (error ? reject(error) : resolve(port as unknown as SerialPortLike))
    )
  })
}

export class SerialSessions {
  private readonly live = new Map<string, Live>()
  private readonly dataListeners = new Set<(session: SerialSession, data: Buffer) => void>()
  private readonly closeListeners = new Set<(session: SerialSession, how: { disconnected: boolean; reason?: string }) => void>()

  constructor(private readonly opener: PortOpener = openSerialPort) {}

  async open(owner: SessionOwner, path: string, options: SerialOptions): Promise<SerialSession> {
    const existing = [...this.live.values()].find((live) => live.session.path === path && !live.closed)
    if (existing) {
      const by = existing.session.owner.kind === 'console' ? 'the Devices panel' : `conversation ${existing.session.owner.conversationId}`
      throw new SerialSessionError(`${path} is already open in DeskClaw (${by}, session ${existing.session.id}); close it first`)
    }
    let port: SerialPortLike
    try {
      port = await this.opener(path, options)
    } catch (error) {
      throw new SerialSessionError(describeOpenError(path, error))
    }
    const session: SerialSession = { id: newId('ser'), path, options, owner, openedAt: Date.now() }
    const live: Live = { session, port, buffer: Buffer.alloc(0), dropped: 0, closed: null, waiters: new Set() }
    this.live.set(session.id, live)
    port.on('data', (chunk: Buffer) => {
      live.buffer = Buffer.concat([live.buffer, chunk])
      if (live.buffer.length > BUFFER_LIMIT) {
        live.dropped += live.buffer.length - BUFFER_LIMIT
        live.buffer = live.buffer.subarray(live.buffer.length - BUFFER_LIMIT)
      }
      for (const listener of this.dataListeners) listener(session, chunk)
      this.wake(live)
    })
    port.on('error', () => {}) // the close event that follows says what happened
    port.on('close', (error) => this.ended(live, error?.disconnected ? { disconnected: true, reason: errorMessage(error) } : { disconnected: false }))
    return session
  }

  get(id: string): SerialSession | undefined {
    return this.live.get(id)?.session
  }

  /** Writes and waits until the bytes left for the device. */
  async write(id: string, data: Buffer): Promise<number> {
    const live = this.usable(id)
    await new Promise<void>((resolve, reject) => {
      live.port.write(data, (error) => (error ? reject(error) : undefined))
      live.port.drain((error) => (error ? reject(error) : resolve()))
    }).catch((error: unknown) => {
      throw new SerialSessionError(`writing to ${live.session.path} failed: ${errorMessage(error)}`)
    })
    return data.length
  }

  /** Waits until `until` arrives (consumed with it), `bytes` are there, or the time is up; returns what was read. */
  async read(id: string, want: { until?: Buffer; bytes?: number; timeoutMs: number; signal?: AbortSignal }): Promise<ReadResult> {
    const found = this.live.get(id)
    if (!found) throw new SerialSessionError(`no open serial session ${id}`)
    const live: Live = found
    const deadline = Date.now() + want.timeoutMs
    for (;;) {
      if (want.until && want.until.length > 0) {
        const at = live.buffer.indexOf(want.until)
        if (at >= 0) return { data: this.take(live, at + want.until.length), reason: 'delimiter' }
      }
      if (want.bytes !== undefined && live.buffer.length >= want.bytes) return { data: this.take(live, want.bytes), reason: 'bytes' }
      if (live.closed) {
        const data = this.take(live, live.buffer.length)
        this.live.delete(id)
        if (live.closed.disconnected) {
          throw new SerialSessionError(`${live.session.path} was disconnected${data.length ? ` (after ${data.length} bytes: ${JSON.stringify(data.toString('utf8'))})` : ''}; the session is closed`)
        }
        return { data, reason: 'closed' }
      }
      const left = deadline - Date.now()
      if (left <= 0 || want.signal?.aborted) return { data: this.take(live, live.buffer.length), reason: 'timeout' }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left)
        const onAbort = () => done()
        want.signal?.addEventListener('abort', onAbort, { once: true })
        function done() {
          clearTimeout(timer)
          live.waiters.delete(done)
          want.signal?.removeEventListener('abort', onAbort)
          resolve()
        }
        live.waiters.add(done)
      })
    }
  }

  async close(id: string): Promise<boolean> {
    const live = this.live.get(id)
    if (!live) return false
    this.live.delete(id)
    if (!live.closed && live.port.isOpen) await new Promise<void>((resolve) => live.port.close(() => resolve()))
    this.ended(live, live.closed ?? { disconnected: false })
    return true
  }

  /** Closes every session of a conversation (it was deleted) and returns how many. */
  async closeOwnedBy(conversationId: string): Promise<number> {
    const mine = [...this.live.values()].filter((live) => live.session.owner.kind === 'conversation' && live.session.owner.conversationId === conversationId)
    await Promise.all(mine.map((live) => this.close(live.session.id)))
    return mine.length
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.live.keys()].map((id) => this.close(id)))
  }

  list(): SerialSession[] {
    return [...this.live.values()].filter((live) => !live.closed).map((live) => live.session)
  }

  onData(listener: (session: SerialSession, data: Buffer) => void): () => void {
    this.dataListeners.add(listener)
    return () => this.dataListeners.delete(listener)
  }

  onClosed(listener: (session: SerialSession, how: { disconnected: boolean; reason?: string }) => void): () => void {
    this.closeListeners.add(listener)
    return () => this.closeListeners.delete(listener)
  }

  private usable(id: string): Live {
    const live = this.live.get(id)
    if (!live) throw new SerialSessionError(`no open serial session ${id} (it was closed, or never opened)`)
    if (live.closed) {
      this.live.delete(id)
      throw new SerialSessionError(`${live.session.path} ${live.closed.disconnected ? 'was disconnected' : 'is closed'}; the session is closed`)
    }
    return live
  }

  private take(live: Live, count: number): Buffer {
    const data = live.buffer.subarray(0, count)
    live.buffer = live.buffer.subarray(count)
    return Buffer.from(data)
  }

  /** Once per session, however many close events the port sends. */
  private ended(live: Live, how: { disconnected: boolean; reason?: string }): void {
    if (live.closed && live.closed !== how) return
    const first = live.closed === null
    live.closed = how
    this.wake(live)
    if (first) for (const listener of this.closeListeners) listener(live.session, how)
  }

  private wake(live: Live): void {
    for (const waiter of [...live.waiters]) waiter()
  }
}

function describeOpenError(path: string, error: unknown): string {
  const message = errorMessage(error)
  if (/ENOENT|No such file|File not found|cannot find/i.test(message)) return `${path} does not exist (unplugged, or a different name)`
  if (/EBUSY|lock|Resource busy|Access denied.*in use/i.test(message)) return `${path} is busy: another program has it open (${message})`
  if (/EACCES|Permission denied|Access denied/i.test(message)) {
    return `no permission to open ${path} (${message})${process.platform === 'linux' ? '; fix: sudo usermod -aG dialout $USER, then log in again' : ''}`
  }
  return `${path} could not be opened: ${message}`
}
