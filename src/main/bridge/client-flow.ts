/**
 * Flow control for one web-host client (docs/architecture.md, "Web host backpressure"): a browser
 * that stops reading must not make the host buffer without limit.
 *
 * - Above `highWaterBytes` waiting in the socket the client is *behind*: its requests are no
 *   longer read (the socket is paused), new calls wait, and events for it are dropped (counted).
 *   Replies to calls already running are still sent: the client is waiting for them, and at most
 *   `maxInFlightCalls` can be running.
 * - Once it drains below `lowWaterBytes` it is caught up: reading resumes. If events were dropped
 *   meanwhile, its view is stale, so it is closed with CLOSE_CODES.missedEvents; the renderer
 *   reconnects and reloads what the events would have changed.
 * - Still behind after `stallMs`, or over `hardBytes` for `hardGraceMs`, it is closed with
 *   CLOSE_CODES.notReading and, `closeGraceMs` later, cut off, which frees what it held.
 */

export interface ClientFlowLimits {
  highWaterBytes: number
  lowWaterBytes: number
  hardBytes: number
  hardGraceMs: number
  stallMs: number
  closeGraceMs: number
  maxInFlightCalls: number
  /** How often a client that is behind is looked at. */
  checkEveryMs: number
}

const MiB = 1024 * 1024

export const DEFAULT_CLIENT_FLOW_LIMITS: ClientFlowLimits = {
  highWaterBytes: 1 * MiB,
  lowWaterBytes: 256 * 1024,
  hardBytes: 16 * MiB,
  hardGraceMs: 2_000,
  stallMs: 10_000,
  closeGraceMs: 1_000,
  maxInFlightCalls: 8,
  checkEveryMs: 100
}

/** WebSocket close codes of the web host (4000-4999: the application's own). */
export const CLOSE_CODES = {
  /** The client did not read what was sent to it: closed to free the memory it held. */
  notReading: 4008,
  /** The client fell behind and events for it were dropped: reconnect and reload. */
  missedEvents: 4009
} as const

/** The part of a `ws` WebSocket this uses (so it can be tested without a network). */
export interface FlowSocket {
  readonly bufferedAmount: number
  readonly readyState: number
  send(data: string): void
  pause(): void
  resume(): void
  close(code: number, reason: string): void
  terminate(): void
}

const OPEN = 1

export interface ClientFlowStats {
  bufferedAmount: number
  behind: boolean
  droppedEvents: number
  waitingCalls: number
  inFlightCalls: number
  /** Why the host closed it, once it has. */
  closedBecause: string | null
}

export class ClientFlow {
  private behindSince: number | null = null
  private overHardSince: number | null = null
  private droppedEvents = 0
  private inFlight = 0
  private readonly waiting: Array<() => Promise<void>> = []
  private timer: ReturnType<typeof setInterval> | null = null
  private cutOff: ReturnType<typeof setTimeout> | null = null
  private closedBecause: string | null = null

  constructor(
    private readonly socket: FlowSocket,
    private readonly limits: ClientFlowLimits = DEFAULT_CLIENT_FLOW_LIMITS,
    private readonly warn: (line: string) => void = (line) => console.warn(`[deskclaw] web host: ${line}`)
  ) {}

  /** An event: sent while the client keeps up, dropped (and counted) while it is behind. */
  sendEvent(frame: string): void {
    if (!this.open()) return
    if (this.isBehind()) {
      this.droppedEvents++
      return
    }
    this.write(frame)
  }

  /** A reply to a call: always sent, since the client waits for it. */
  sendReply(frame: string): void {
    if (!this.open()) return
    this.write(frame)
    this.isBehind()
  }

  /** Runs a call now, or once the client has caught up and fewer than maxInFlightCalls are running. */
  admit(call: () => Promise<void>): void {
    this.waiting.push(call)
    this.pump()
  }

  stats(): ClientFlowStats {
    return {
      bufferedAmount: this.socket.bufferedAmount,
      behind: this.behindSince !== null,
      droppedEvents: this.droppedEvents,
      waitingCalls: this.waiting.length,
      inFlightCalls: this.inFlight,
      closedBecause: this.closedBecause
    }
  }

  /** The socket closed: stop watching it. */
  dispose(): void {
    this.stopWatching()
    if (this.cutOff) clearTimeout(this.cutOff)
    this.cutOff = null
    this.waiting.length = 0
  }

  private open(): boolean {
    return this.closedBecause === null && this.socket.readyState === OPEN
  }

  private write(frame: string): void {
    try {
      this.socket.send(frame)
    } catch (error) {
      this.warn(`could not send a message: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  /** Whether the client is behind now; becoming behind pauses reading and starts the watch. */
  private isBehind(): boolean {
    if (this.behindSince !== null) return true
    if (this.socket.bufferedAmount <= this.limits.highWaterBytes) return false
    this.behindSince = Date.now()
    this.socket.pause()
    this.timer = setInterval(() => this.check(), this.limits.checkEveryMs)
    this.timer.unref?.()
    return true
  }

  private check(): void {
    if (!this.open()) return this.stopWatching()
    const buffered = this.socket.bufferedAmount
    const now = Date.now()
    if (buffered <= this.limits.lowWaterBytes) return this.caughtUp()
    this.overHardSince = buffered > this.limits.hardBytes ? (this.overHardSince ?? now) : null
    if (this.overHardSince !== null && now - this.overHardSince >= this.limits.hardGraceMs) {
      return this.close(CLOSE_CODES.notReading, `not reading: over ${mib(this.limits.hardBytes)} waiting for ${seconds(this.limits.hardGraceMs)}`)
    }
    if (this.behindSince !== null && now - this.behindSince >= this.limits.stallMs) {
      return this.close(CLOSE_CODES.notReading, `not reading: over ${mib(this.limits.highWaterBytes)} waiting for ${seconds(this.limits.stallMs)}`)
    }
  }

  private caughtUp(): void {
    this.stopWatching()
    if (this.droppedEvents > 0) {
      this.close(CLOSE_CODES.missedEvents, `missed ${this.droppedEvents} event(s) while behind: reconnect to reload`)
      return
    }
    this.socket.resume()
    this.pump()
  }

  private pump(): void {
    while (this.waiting.length > 0 && this.open() && !this.isBehind()) {
      if (this.inFlight >= this.limits.maxInFlightCalls) {
        this.socket.pause() // resumed when a call ends
        return
      }
      const call = this.waiting.shift()!
      this.inFlight++
      void call().finally(() => {
        this.inFlight--
        if (this.behindSince === null && this.open()) this.socket.resume()
        this.pump()
      })
    }
  }

  private close(code: number, reason: string): void {
    this.closedBecause = reason
    this.stopWatching()
    this.waiting.length = 0
    this.warn(`closed a client (${code}): ${reason}`)
    try {
      this.socket.close(code, reason)
    } catch {
      // Closing twice, or a socket already gone: the cut-off below still frees it.
    }
    // A client that does not read never sees the close frame either: cut it off, freeing its buffer.
    this.cutOff = setTimeout(() => this.socket.terminate(), this.limits.closeGraceMs)
    this.cutOff.unref?.()
  }

  private stopWatching(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    this.behindSince = null
    this.overHardSince = null
  }
}

function mib(bytes: number): string {
  return `${(bytes / MiB).toFixed(bytes % MiB === 0 ? 0 : 1)} MiB`
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`
}
