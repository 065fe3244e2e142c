/**
 * The app's side of the desktop driver (docs/desktop.md, "The driver"): starts the process on the
 * first call, sends typed requests with an id and a deadline, and turns every way it can fail — no
 * display, a crash, a hang — into `desktop unavailable: <why>`. A dead driver is started again on
 * the next call, so fixing the cause (starting X, granting a permission) needs no restart of the app.
 */
import { existsSync } from 'node:fs'
import { checkDisplay } from './display'
import { forkDriver, resolveDriverEntry, type DriverChannel, type DriverLauncher } from './driver-launcher'
import {
  DriverMessageSchema,
  DriverResultSchemas,
  type DriverError,
  type DriverOp,
  type DriverOperation,
  type DriverResult,
  type HelloResult
} from './protocol'

export class DesktopUnavailableError extends Error {
  constructor(readonly why: string) {
    super(`desktop unavailable: ${why}`)
    this.name = 'DesktopUnavailableError'
  }
}

/** The driver answered with an error (aborted, fail-safe, a window that is gone …). */
export class DriverOperationError extends Error {
  constructor(readonly code: DriverError['code'], message: string) {
    super(message)
    this.name = 'DriverOperationError'
  }
}

export interface DesktopDriverOptions {
  launcher?: DriverLauncher
  entry?: string
  env?: NodeJS.ProcessEnv
  platform?: NodeJS.Platform
  /** How long the process may take to open the display and load nut-js. */
  startTimeoutMs?: number
}

export interface RequestOptions {
  timeoutMs?: number
  signal?: AbortSignal
}

interface Pending {
  op: DriverOp
  resolve(value: unknown): void
  reject(error: Error): void
}

interface Running {
  channel: DriverChannel
  hello: HelloResult
}

const DEFAULT_TIMEOUT_MS = 15_000
/** Operations that press keys or buttons (a crash during one may leave them down). */
const INPUT_OPS = new Set<DriverOp>(['click', 'drag', 'scroll', 'keys', 'type', 'move'])
/** After a deadline or an abort, how long the driver has to answer before it is killed as hung. */
const GRACE_MS = 1_500

export class DesktopDriver {
  private running: Promise<Running> | null = null
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private readonly failSafeListeners = new Set<(at: { x: number; y: number }) => void>()
  private lastWhy: string | null = null
  private failSafeOn = false

  constructor(private readonly options: DesktopDriverOptions = {}) {}

  /** Starts the driver if needed and says what it found (the display, the screen); throws DesktopUnavailableError. */
  async hello(): Promise<HelloResult> {
    return (await this.ensure()).hello
  }

  /** The driver process's id while one runs (for diagnostics). */
  async pid(): Promise<number | undefined> {
    return this.running ? (await this.running.catch(() => null))?.channel.pid : undefined
  }

  /** Why the last start failed, if it did (for `doctor` and the UI); null after a good start. */
  lastFailure(): string | null {
    return this.lastWhy
  }

  onFailSafe(listener: (at: { x: number; y: number }) => void): () => void {
    this.failSafeListeners.add(listener)
    return () => this.failSafeListeners.delete(listener)
  }

  async request<O extends DriverOp>(operation: Extract<DriverOperation, { op: O }>, options: RequestOptions = {}): Promise<DriverResult<O>> {
    if (options.signal?.aborted) throw new DriverOperationError('aborted', 'stopped')
    const { channel } = await this.ensure()
    return this.send(channel, operation, options) as Promise<DriverResult<O>>
  }

  /** Turns the fail-safe corner watch on or off (kept across driver restarts). */
  async setFailSafe(enabled: boolean): Promise<void> {
    this.failSafeOn = enabled
    if (!this.running) return
    const { channel } = await this.ensure()
    await this.send(channel, { op: 'fail_safe', enabled }, { timeoutMs: 2_000 })
  }

  /** Releases every held key and button; never throws (it runs on abort paths). */
  async releaseAll(): Promise<void> {
    if (!this.running) return
    try {
      const { channel } = await this.running
      await this.send(channel, { op: 'release_all' }, { timeoutMs: 2_000 })
    } catch {
      // A driver that is gone holds nothing.
    }
  }

  private async recoverInput(): Promise<void> {
    try {
      const { channel } = await this.ensure()
      await this.send(channel, { op: 'release_all', everything: true }, { timeoutMs: 3_000 })
    } catch {
      // The display is gone too: nothing is held on it.
    }
  }

  async close(): Promise<void> {
    const running = this.running
    this.running = null
    if (!running) return
    try {
      const { channel } = await running
      await this.send(channel, { op: 'release_all' }, { timeoutMs: 1_000 }).catch(() => {})
      channel.kill()
    } catch {
      // never started
    }
  }

  private ensure(): Promise<Running> {
    if (!this.running) {
      const starting = this.start()
      this.running = starting
      starting.then(
        () => (this.lastWhy = null),
        (error: Error) => {
          this.lastWhy = error instanceof DesktopUnavailableError ? error.why : error.message
          if (this.running === starting) this.running = null
        }
      )
    }
    return this.running
  }

  private async start(): Promise<Running> {
    const env = { ...(this.options.env ?? process.env) }
    const display = checkDisplay(env, this.options.platform ?? process.platform)
    if (!display.usable) throw new DesktopUnavailableError(`${display.why}${display.fix ? `; ${display.fix}` : ''}`)
    const entry = this.options.entry ?? resolveDriverEntry(env)
    if (!existsSync(entry)) throw new DesktopUnavailableError(`the driver is not built (${entry} is missing; run npm run build)`)
    // The driver never uses nut-js's clipboard (it shells out to xsel); the app owns the clipboard.
    env.NUT_JS_DISABLE_DEFAULT_CLIPBOARD_PROVIDER = '1'
    const channel = (this.options.launcher ?? forkDriver)({ entry, env })
    let starting = true
    let startFailure: ((error: Error) => void) | null = null

    channel.onMessage((raw) => {
      const parsed = DriverMessageSchema.safeParse(raw)
      if (!parsed.success) return // a malformed message from our own child is dropped, never acted on
      const message = parsed.data
      if ('event' in message) {
        if (message.event === 'unavailable') {
          startFailure?.(new DesktopUnavailableError(message.why))
          channel.kill()
        } else {
          for (const listener of this.failSafeListeners) listener(message.at)
        }
        return
      }
      const waiting = this.pending.get(message.id)
      if (!waiting) return
      this.pending.delete(message.id)
      if (!message.ok) return waiting.reject(new DriverOperationError(message.error.code, message.error.message))
      const result = DriverResultSchemas[waiting.op].safeParse(message.result)
      if (result.success) waiting.resolve(result.data)
      else waiting.reject(new DriverOperationError('failed', `the driver answered ${waiting.op} with something unexpected`))
    })

    channel.onExit(({ code, signal }) => {
      const heldInput = !starting && [...this.pending.values()].some((waiting) => INPUT_OPS.has(waiting.op))
      const how = signal ? `signal ${signal}` : `exit code ${code}`
      const tail = lastLine(channel.stderrTail())
      const why = `the desktop driver ${starting ? 'could not start' : 'stopped'} (${how})${tail ? `: ${tail}` : ''}`
      this.lastWhy = why
      startFailure?.(new DesktopUnavailableError(why))
      for (const [id, waiting] of this.pending) {
        if (waiting.op === 'release_all' || waiting.op === 'abort') waiting.resolve({})
        else waiting.reject(new DesktopUnavailableError(`${why}; it starts again on the next call`))
        this.pending.delete(id)
      }
      if (this.running) void this.running.then((running) => running.channel === channel && (this.running = null), () => {})
      // A driver that died mid-action may leave a button or key down in the window system: a new
      // one releases every button and modifier at once, instead of the user finding them stuck.
      if (heldInput) setTimeout(() => void this.recoverInput(), 0)
    })

    const hello = await new Promise<HelloResult>((resolve, reject) => {
      startFailure = reject
      this.send(channel, { op: 'hello' }, { timeoutMs: this.options.startTimeoutMs ?? 20_000 }).then(
        (result) => resolve(result as HelloResult),
        (error: Error) => {
          channel.kill()
          reject(error instanceof DesktopUnavailableError ? error : new DesktopUnavailableError(`the desktop driver did not start: ${error.message}`))
        }
      )
    })
    starting = false
    startFailure = null
    if (this.failSafeOn) await this.send(channel, { op: 'fail_safe', enabled: true }, { timeoutMs: 2_000 }).catch(() => {})
    return { channel, hello }
  }

  private send(channel: DriverChannel, operation: DriverOperation, options: RequestOptions): Promise<unknown> {
    const id = this.nextId++
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    return new Promise((resolve, reject) => {
      let settled = false
      const finish = (fn: () => void) => {
        if (settled) return
        settled = true
        clearTimeout(deadline)
        options.signal?.removeEventListener('abort', stopRemote)
        fn()
      }
      // An abort or a deadline asks the driver to stop the operation (it releases what it holds);
      // a driver that has not answered the request within the grace period after that is hung, and killed.
      let stopping = false
      const stopRemote = () => {
        if (stopping || operation.op === 'abort') return
        stopping = true
        channel.send({ id: this.nextId++, deadline: Date.now() + GRACE_MS, operation: { op: 'abort', target: id } })
        setTimeout(() => {
          if (this.pending.has(id)) {
            this.pending.delete(id)
            channel.kill()
          }
        }, GRACE_MS).unref?.()
      }
      const deadline = setTimeout(() => {
        stopRemote()
        finish(() => reject(new DriverOperationError('failed', `the desktop driver did not finish ${operation.op} within ${timeoutMs} ms`)))
      }, timeoutMs)
      options.signal?.addEventListener('abort', stopRemote, { once: true })
      this.pending.set(id, {
        op: operation.op,
        resolve: (value) => finish(() => resolve(value)),
        reject: (error) => finish(() => reject(error))
      })
      channel.send({ id, deadline: Date.now() + timeoutMs, operation })
    })
  }
}

function lastLine(text: string): string {
  const lines = text.split('\n').map((line) => line.trim()).filter(Boolean)
  return lines.at(-1) ?? ''
}
