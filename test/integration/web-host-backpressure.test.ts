/**
 * The web host under a client that stops reading (issue 27; docs/architecture.md, "Web host
 * backpressure"): while the app publishes a flood of events, a client whose socket is paused is
 * held to about the high-water mark and then closed, a reading client gets every event and keeps
 * answering calls, a client that falls behind and reads again is told to reconnect (and the
 * renderer's client does), and an oversize call gets an error rather than a silent drop.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startWebHost, type WebHost } from '../../src/main/bridge'
import { CALL_FRAME_LIMITS } from '../../src/main/bridge/call-size'
import { CLOSE_CODES, DEFAULT_CLIENT_FLOW_LIMITS } from '../../src/main/bridge/client-flow'
import { WebSocketBridgeClient, type SocketLike } from '../../src/renderer/src/bridge/websocket-client'
import type { ConnectionState } from '../../src/renderer/src/bridge/connection'
import type { BridgeResult, WireMessage } from '../../src/shared'
import { createTempApp, type TempApp } from '../helpers/temp-app'

const TOKEN = 'b'.repeat(32)
const STALL_MS = 3000
const MiB = 1024 * 1024

let temp: TempApp
let host: WebHost
let root: string

beforeAll(async () => {
  temp = createTempApp('http://127.0.0.1:9/v1')
  root = mkdtempSync(join(tmpdir(), 'deskclaw-backpressure-'))
  mkdirSync(join(root, 'renderer'))
  writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html><title>DeskClaw</title>')
  // Only the stall time is shortened (10 s by default); the byte bounds are the shipped ones.
  host = await startWebHost({ app: temp.app, rendererDir: join(root, 'renderer'), token: TOKEN, clientLimits: { stallMs: STALL_MS } })
})

afterAll(async () => {
  await host?.close()
  await temp?.dispose()
  rmSync(root, { recursive: true, force: true })
})

const bridgeUrl = (): string => `ws://127.0.0.1:${host.port}/bridge?token=${TOKEN}`

function connect(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(bridgeUrl(), { origin: `http://127.0.0.1:${host.port}` })
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

/** The client's own TCP socket: pausing it makes the client stop reading, as a frozen tab would. */
const tcpOf = (ws: WebSocket): Socket => (ws as unknown as { _socket: Socket })._socket

let nextId = 1
function call(ws: WebSocket, name: string, input: unknown): Promise<BridgeResult<unknown>> {
  const id = nextId++
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const message = JSON.parse(String(data)) as WireMessage
      if ('id' in message && message.id === id) {
        ws.off('message', onMessage)
        resolve(message.result)
      }
    }
    ws.on('message', onMessage)
    ws.send(JSON.stringify({ id, call: name, input }))
  })
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Publishes `count` events of `bytes` each, in batches, letting the event loop run between them. */
async function flood(count: number, bytes: number, onBatch: () => void = () => {}): Promise<void> {
  const text = 'x'.repeat(bytes)
  for (let sent = 0; sent < count; sent += 8) {
    for (let i = 0; i < 8; i++) temp.app.events.publish({ kind: 'serial_data', sessionId: `flood-${sent + i}`, text })
    onBatch()
    await pause(1)
  }
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out')
    await pause(50)
  }
}

describe('web host: a client that stops reading', () => {
  it('is held to the high-water mark and closed, while a reading client gets every event', async () => {
    const reader = await connect()
    let received = 0
    reader.on('message', (data) => {
      if ((JSON.parse(String(data)) as WireMessage & { event?: { kind: string } }).event?.kind === 'serial_data') received++
    })
    const stuck = await connect()
    tcpOf(stuck).pause()
    await waitFor(() => host.clients().length === 2, 2000)

    const EVENTS = 4096
    const EVENT_BYTES = 64 * 1024 // 256 MiB in all, to each client
    global.gc?.()
    const rssBefore = process.memoryUsage().rss
    let peakRss = rssBefore
    let peakBuffered = 0
    let dropped = 0
    let wasBehind = false
    await flood(EVENTS, EVENT_BYTES, () => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss)
      for (const client of host.clients()) {
        peakBuffered = Math.max(peakBuffered, client.bufferedAmount)
        dropped = Math.max(dropped, client.droppedEvents)
        wasBehind ||= client.behind
      }
    })
    console.info(
      `[backpressure] ${EVENTS} events × ${EVENT_BYTES / 1024} KiB: RSS ${(rssBefore / MiB).toFixed(0)} → peak ${(peakRss / MiB).toFixed(0)} MiB; ` +
        `peak bufferedAmount ${(peakBuffered / MiB).toFixed(2)} MiB; stuck client dropped ${dropped} before it was closed`
    )
    // The frame that crosses the high-water mark is the last one queued: at most one event over it.
    expect(peakBuffered).toBeLessThanOrEqual(DEFAULT_CLIENT_FLOW_LIMITS.highWaterBytes + EVENT_BYTES + 1024)
    expect(peakRss - rssBefore).toBeLessThan(128 * MiB)
    expect(wasBehind).toBe(true)
    expect(dropped).toBeGreaterThan(0)

    // The stuck client is closed within the stall time (plus the close grace); the reader stays.
    await waitFor(() => host.clients().length === 1, STALL_MS + DEFAULT_CLIENT_FLOW_LIMITS.closeGraceMs + 2000)
    await waitFor(() => received === EVENTS, 5000)
    expect(host.clients()[0]).toMatchObject({ droppedEvents: 0, behind: false })
    expect(await call(reader, 'app.info', {})).toMatchObject({ ok: true })
    reader.close()
    stuck.terminate()
  }, 60_000)

  it('a client that falls behind and reads again is closed with 4009; the renderer client reconnects', async () => {
    let raw: WebSocket | null = null
    const client = new WebSocketBridgeClient({
      url: bridgeUrl(),
      createSocket: (url) => {
        raw = new WebSocket(url, { origin: `http://127.0.0.1:${host.port}` })
        return raw as unknown as SocketLike
      },
      minDelayMs: 50,
      maxDelayMs: 200,
      addressAnswers: async () => true
    })
    const states: ConnectionState['status'][] = []
    client.subscribe((state) => states.push(state.status))
    await waitFor(() => client.getState().status === 'connected', 3000)
    const first = raw!
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      first.once('close', (code, reason) => resolve({ code, reason: String(reason) }))
    )
    tcpOf(first).pause()
    // 16 MiB: past what the kernel's socket buffers take, and past the high-water mark.
    await flood(256, 64 * 1024)
    expect(host.clients()[0]).toMatchObject({ behind: true, droppedEvents: expect.any(Number) })
    expect(host.clients()[0]!.droppedEvents).toBeGreaterThan(0)
    tcpOf(first).resume()

    expect(await closed).toMatchObject({ code: CLOSE_CODES.missedEvents, reason: expect.stringMatching(/^missed \d+ event\(s\) while behind/) })
    await waitFor(() => raw !== first && client.getState().status === 'connected', 5000)
    expect(states).toContain('disconnected')
    expect(await client.invoke('app.info', {})).toMatchObject({ ok: true })
    raw!.close()
  }, 30_000)
})

describe('web host: frame size per call', () => {
  it('answers an oversize call with an error and keeps the connection; agent.send may be larger', async () => {
    const ws = await connect()
    const padding = 'p'.repeat(CALL_FRAME_LIMITS.default + 1024)
    const oversize = await call(ws, 'app.info', { padding })
    expect(oversize).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/app\.info call is .* at most 1 MiB/) } })
    // The same size is within agent.send's bound: it gets as far as validating its input.
    const send = await call(ws, 'agent.send', { conversationId: 'none', text: padding })
    expect(send).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('Invalid input for agent.send') } })
    expect(CALL_FRAME_LIMITS['agent.send']).toBe(48 * MiB)
    expect(await call(ws, 'app.info', {})).toMatchObject({ ok: true })
    ws.close()
  })
})
