import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  type SocketLike,
  WebSocketBridgeClient,
  bridgeUrlFromLocation
} from '../../../src/renderer/src/bridge/websocket-client'
import type { BridgeEvent } from '../../../src/shared/bridge'

class FakeSocket implements SocketLike {
  readyState = 0
  sent: Array<{ id: number; call: string; input: unknown }> = []
  onopen: SocketLike['onopen'] = null
  onmessage: SocketLike['onmessage'] = null
  onclose: SocketLike['onclose'] = null
  onerror: SocketLike['onerror'] = null
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data))
  }
  close() {
    this.drop()
  }
  open() {
    this.readyState = 1
    this.onopen?.({})
  }
  drop() {
    this.readyState = 3
    this.onerror?.({})
    this.onclose?.({})
  }
  receive(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) })
  }
}

describe('WebSocketBridgeClient', () => {
  let sockets: FakeSocket[]
  const make = () =>
    new WebSocketBridgeClient({
      url: 'ws://127.0.0.1:1/bridge?token=t',
      minDelayMs: 100,
      maxDelayMs: 1000,
      createSocket: (url) => {
        const socket = new FakeSocket(url)
        sockets.push(socket)
        return socket
      }
    })

  beforeEach(() => {
    sockets = []
    vi.useFakeTimers()
  })
  afterEach(() => vi.useRealTimers())

  it('builds the bridge URL from the page location and its token', () => {
    expect(bridgeUrlFromLocation({ protocol: 'http:', host: '127.0.0.1:5173', search: '?token=a b&x=1' })).toBe(
      'ws://127.0.0.1:5173/bridge?token=a%20b'
    )
    expect(bridgeUrlFromLocation({ protocol: 'https:', host: 'h', search: '' })).toBe('wss://h/bridge?token=')
  })

  it('queues calls until the first connection, matches results by id and dispatches events', async () => {
    const client = make()
    expect(client.getState().status).toBe('connecting')
    const call = client.invoke('conversations.list', {})
    const events: BridgeEvent[] = []
    client.onEvent((e) => events.push(e))
    sockets[0]!.open()
    expect(client.getState().status).toBe('connected')
    expect(sockets[0]!.sent).toEqual([{ id: 1, call: 'conversations.list', input: {} }])
    sockets[0]!.receive({ event: { kind: 'conversations_changed' } })
    sockets[0]!.receive({ id: 1, result: { ok: true, data: [] } })
    await expect(call).resolves.toEqual({ ok: true, data: [] })
    expect(events).toEqual([{ kind: 'conversations_changed' }])
  })

  it('fails pending calls when the socket drops, then reconnects with backoff', async () => {
    const client = make()
    sockets[0]!.open()
    const states: string[] = []
    client.subscribe((s) => states.push(s.status))
    const call = client.invoke('settings.get', {})
    sockets[0]!.drop()
    await expect(call).resolves.toEqual({
      ok: false,
      error: { code: 'INTERNAL', message: 'Connection to DeskClaw lost' }
    })
    expect(client.getState().status).toBe('disconnected')
    // While down, calls fail at once instead of hanging.
    await expect(client.invoke('settings.get', {})).resolves.toMatchObject({ ok: false })
    vi.advanceTimersByTime(200)
    expect(sockets).toHaveLength(2)
    sockets[1]!.drop() // second failure: longer wait
    vi.advanceTimersByTime(150)
    expect(sockets).toHaveLength(2)
    vi.advanceTimersByTime(200)
    expect(sockets).toHaveLength(3)
    sockets[2]!.open()
    expect(client.getState()).toMatchObject({ status: 'connected', attempts: 0 })
    expect(states).toContain('disconnected')
  })
})

describe('WebSocketBridgeClient: an address that no longer answers', () => {
  let sockets: FakeSocket[]
  /** What the address probe answers next (true: something answers HTTP there). */
  let answers: boolean
  const make = () =>
    new WebSocketBridgeClient({
      url: 'ws://127.0.0.1:1/bridge?token=t',
      minDelayMs: 100,
      maxDelayMs: 1000,
      addressAnswers: async () => answers,
      createSocket: (url) => {
        const socket = new FakeSocket(url)
        sockets.push(socket)
        return socket
      }
    })
  /** The pending attempt fails; the probe's answer is awaited; the next attempt starts (at most the cap + 20 % later). */
  const failAttempt = async () => {
    sockets.at(-1)!.drop()
    await vi.advanceTimersByTimeAsync(0)
    await vi.advanceTimersByTimeAsync(1500)
  }

  beforeEach(() => {
    sockets = []
    answers = false
    vi.useFakeTimers()
  })
  afterEach(() => vi.useRealTimers())

  it('says token-refused when the address answers but keeps refusing the socket (restarted with a new token)', async () => {
    const client = make()
    sockets[0]!.open()
    sockets[0]!.drop() // the host went away
    expect(client.getState()).toMatchObject({ status: 'disconnected', addressGone: null })
    answers = true // …and came back on the same port with another token
    await vi.advanceTimersByTimeAsync(1500)
    await failAttempt()
    expect(client.getState().addressGone).toBeNull() // once could be a host still starting
    await failAttempt()
    expect(client.getState()).toMatchObject({ status: 'disconnected', addressGone: 'token-refused' })
  })

  it('says no-answer after several attempts find nothing listening, then recovers when the host is back', async () => {
    const client = make()
    sockets[0]!.open()
    sockets[0]!.drop()
    await vi.advanceTimersByTimeAsync(1500)
    for (let i = 0; i < 3; i++) await failAttempt()
    expect(client.getState().addressGone).toBeNull()
    await failAttempt()
    expect(client.getState().addressGone).toBe('no-answer')
    // Gone: attempts go on at the slowest pace, and "Try again" starts one at once.
    sockets.at(-1)!.drop()
    await vi.advanceTimersByTimeAsync(0)
    expect(client.getState().retryAt! - Date.now()).toBeGreaterThan(700) // the cap (1000 ms, ±20 %), not the first step
    const before = sockets.length
    client.reconnectNow()
    expect(sockets.length).toBe(before + 1)
    sockets.at(-1)!.open()
    expect(client.getState()).toMatchObject({ status: 'connected', addressGone: null, attempts: 0 })
  })

  it('judges a stale token before the first connection too (a reload with an old sessionStorage token)', async () => {
    answers = true
    const client = make()
    await failAttempt()
    await failAttempt()
    expect(client.getState()).toMatchObject({ status: 'connecting', addressGone: 'token-refused' })
  })
})
