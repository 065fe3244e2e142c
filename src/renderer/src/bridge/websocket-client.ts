import type {
  BridgeEvent,
  BridgeResult,
  CallInput,
  CallName,
  CallOutput,
  DeskclawApi,
  WireMessage,
  WireRequest
} from '../../../shared/bridge'
import type { AddressGoneReason, ConnectionMonitor, ConnectionState } from './connection'

/** The part of the browser WebSocket this client uses (so tests can run it under plain Node). */
export interface SocketLike {
  readonly readyState: number
  send(data: string): void
  close(): void
  onopen: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onclose: ((event: unknown) => void) | null
  onerror: ((event: unknown) => void) | null
}

export interface WebSocketClientOptions {
  url: string
  /** Injected for tests; defaults to the browser's WebSocket. */
  createSocket?: (url: string) => SocketLike
  /** Backoff: first delay, cap (ms). */
  minDelayMs?: number
  maxDelayMs?: number
  /**
   * Whether anything answers plain HTTP at the bridge's address (injected for tests). A browser's
   * WebSocket cannot tell a refused token (403) from a closed port, so after a failed attempt the
   * client asks this: an address that answers but refuses the socket has a new token.
   */
  addressAnswers?: () => Promise<boolean>
  /** Failed attempts at an address that answers before it counts as `token-refused` (default 2). */
  tokenRefusedAfter?: number
  /** Failed attempts at an address that does not answer before it counts as `no-answer` (default 4). */
  noAnswerAfter?: number
}

type Pending = { resolve: (result: BridgeResult<unknown>) => void }

const CONNECTION_LOST: BridgeResult<never> = {
  ok: false,
  error: { code: 'INTERNAL', message: 'Connection to DeskClaw lost' }
}

/** The URL of the web host's bridge, from the page's own origin and its `?token=`. */
export function bridgeUrlFromLocation(location: { protocol: string; host: string; search: string }): string {
  return bridgeUrl(location, new URLSearchParams(location.search).get('token') ?? '')
}

/** The URL of the web host's bridge, from the page's own origin and a token. */
export function bridgeUrl(location: { protocol: string; host: string }, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  return `${scheme}://${location.host}/bridge?token=${encodeURIComponent(token)}`
}

/** Whether the web host behind a bridge URL answers an HTTP HEAD of its page (any status) within 3 s. */
export function httpAddressProbe(bridge: string): () => Promise<boolean> {
  const url = new URL(bridge)
  const page = `${url.protocol === 'wss:' ? 'https:' : 'http:'}//${url.host}/`
  return async () => {
    try {
      await fetch(page, { method: 'HEAD', cache: 'no-store', credentials: 'omit', redirect: 'manual', signal: AbortSignal.timeout(3000) })
      return true
    } catch {
      return false
    }
  }
}

/**
 * DeskclawApi over the `deskclaw web` WebSocket. Calls made before the first connection are
 * queued; once a connection has dropped, calls fail at once (the user sees the banner) rather
 * than hang, and calls already sent fail with "Connection to DeskClaw lost". Reconnecting goes on
 * with backoff; when the address looks gone for good (see AddressGoneReason) the state says so
 * (docs/architecture.md, "Security of the front doors").
 */
export class WebSocketBridgeClient implements DeskclawApi, ConnectionMonitor {
  private socket: SocketLike | null = null
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private queue: Array<{ frame: WireRequest; pending: Pending }> = []
  private readonly eventListeners = new Set<(event: BridgeEvent) => void>()
  private readonly stateListeners = new Set<(state: ConnectionState) => void>()
  private state: ConnectionState = { status: 'connecting', retryAt: null, attempts: 0, addressGone: null }
  private everConnected = false
  /** Consecutive failed attempts at an address that answered HTTP, and that did not. */
  private refusals = 0
  private silences = 0
  private retryTimer: ReturnType<typeof setTimeout> | null = null
  private readonly createSocket: (url: string) => SocketLike
  private readonly minDelayMs: number
  private readonly maxDelayMs: number
  private readonly addressAnswers: () => Promise<boolean>
  private readonly tokenRefusedAfter: number
  private readonly noAnswerAfter: number

  constructor(private readonly options: WebSocketClientOptions) {
    this.createSocket =
      options.createSocket ??
      ((url) => new (globalThis as unknown as { WebSocket: new (url: string) => SocketLike }).WebSocket(url))
    this.minDelayMs = options.minDelayMs ?? 500
    this.maxDelayMs = options.maxDelayMs ?? 15_000
    this.addressAnswers = options.addressAnswers ?? httpAddressProbe(options.url)
    this.tokenRefusedAfter = options.tokenRefusedAfter ?? 2
    this.noAnswerAfter = options.noAnswerAfter ?? 4
    this.connect()
  }

  invoke<K extends CallName>(name: K, input: CallInput<K>): Promise<BridgeResult<CallOutput<K>>> {
    return new Promise<BridgeResult<unknown>>((resolve) => {
      const frame: WireRequest = { id: this.nextId++, call: name, input }
      const pending: Pending = { resolve }
      if (this.socket && this.socket.readyState === 1 /* OPEN */) {
        this.send(frame, pending)
      } else if (!this.everConnected) {
        this.queue.push({ frame, pending })
      } else {
        resolve(CONNECTION_LOST)
      }
    }) as Promise<BridgeResult<CallOutput<K>>>
  }

  onEvent(listener: (event: BridgeEvent) => void): () => void {
    this.eventListeners.add(listener)
    return () => this.eventListeners.delete(listener)
  }

  getState(): ConnectionState {
    return this.state
  }

  subscribe(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener)
    return () => this.stateListeners.delete(listener)
  }

  reconnectNow(): void {
    // Only while waiting between attempts: not while connected nor while an attempt is under way.
    if (this.state.status === 'connected' || !this.retryTimer) return
    clearTimeout(this.retryTimer)
    this.retryTimer = null
    this.connect()
  }

  private setState(state: ConnectionState): void {
    this.state = state
    for (const listener of this.stateListeners) listener(state)
  }

  private send(frame: WireRequest, pending: Pending): void {
    this.pending.set(frame.id, pending)
    try {
      this.socket?.send(JSON.stringify(frame))
    } catch {
      this.pending.delete(frame.id)
      pending.resolve(CONNECTION_LOST)
    }
  }

  private connect(): void {
    let socket: SocketLike
    try {
      socket = this.createSocket(this.options.url)
    } catch {
      this.scheduleReconnect()
      return
    }
    this.socket = socket
    if (this.everConnected) this.setState({ ...this.state, status: 'disconnected', retryAt: null })
    let opened = false

    socket.onopen = () => {
      opened = true
      this.everConnected = true
      this.refusals = 0
      this.silences = 0
      this.setState({ status: 'connected', retryAt: null, attempts: 0, addressGone: null })
      const queued = this.queue
      this.queue = []
      for (const { frame, pending } of queued) this.send(frame, pending)
    }
    socket.onmessage = (message) => this.handleMessage(message.data)
    socket.onclose = () => {
      if (this.socket !== socket) return
      this.socket = null
      this.failPending()
      this.scheduleReconnect()
      // A drop says nothing about the address; a failed attempt might.
      if (!opened) void this.judgeAddress()
    }
    // onerror is always followed by onclose; nothing to do here.
    socket.onerror = () => {}
  }

  private failPending(): void {
    const pending = [...this.pending.values()]
    this.pending.clear()
    for (const p of pending) p.resolve(CONNECTION_LOST)
    // Before the first connection the queue waits; after a drop it is empty anyway.
  }

  /** After a failed attempt: does the address still answer? Enough of the same answer makes it gone. */
  private async judgeAddress(): Promise<void> {
    const answers = await this.addressAnswers()
    if (this.state.status === 'connected') return // a later attempt got through meanwhile
    if (answers) {
      this.refusals++
      this.silences = 0
    } else {
      this.silences++
      this.refusals = 0
    }
    const gone: AddressGoneReason | null =
      this.refusals >= this.tokenRefusedAfter ? 'token-refused' : this.silences >= this.noAnswerAfter ? 'no-answer' : null
    if (gone && gone !== this.state.addressGone) this.setState({ ...this.state, addressGone: gone })
  }

  private scheduleReconnect(): void {
    const attempts = this.state.attempts + 1
    // Once the address looks gone, keep trying at the slowest pace: it may come back (same port and token).
    const base = this.state.addressGone
      ? this.maxDelayMs
      : Math.min(this.maxDelayMs, this.minDelayMs * 2 ** Math.min(attempts - 1, 10))
    const delay = Math.round(base * (0.8 + Math.random() * 0.4))
    const retryAt = Date.now() + delay
    // Before the first success we still say "connecting": the host may just be starting.
    this.setState({ status: this.everConnected ? 'disconnected' : 'connecting', retryAt, attempts, addressGone: this.state.addressGone })
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null
      this.connect()
    }, delay)
  }

  private handleMessage(data: unknown): void {
    if (typeof data !== 'string') return
    let message: WireMessage
    try {
      message = JSON.parse(data) as WireMessage
    } catch {
      return
    }
    if (!message || typeof message !== 'object') return
    if ('id' in message && typeof message.id === 'number') {
      const pending = this.pending.get(message.id)
      if (!pending) return
      this.pending.delete(message.id)
      pending.resolve(message.result)
    } else if ('event' in message && message.event) {
      for (const listener of this.eventListeners) {
        try {
          listener(message.event)
        } catch (error) {
          console.error('DeskClaw event listener failed', error)
        }
      }
    }
  }
}
