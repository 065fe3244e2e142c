import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createBridgeHandlers, dispatchCall, isTrustedSender, startWebHost, type WebHost } from '../../../src/main/bridge'
import type { BridgeEvent, WireMessage } from '../../../src/shared'
import { createTempApp, type TempApp } from '../../helpers/temp-app'

let temp: TempApp
let host: WebHost
let rendererDir: string

beforeAll(async () => {
  temp = createTempApp('http://127.0.0.1:9/v1')
  rendererDir = mkdtempSync(join(tmpdir(), 'deskclaw-renderer-'))
  mkdirSync(join(rendererDir, 'assets'))
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>DeskClaw</title>')
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)')
  host = await startWebHost({ app: temp.app, rendererDir, token: 'a'.repeat(32) })
})

afterAll(async () => {
  await host.close()
  await temp.dispose()
})

describe('dispatchCall', () => {
  it('validates input against the contract and never throws', async () => {
    const table = createBridgeHandlers(temp.app, 'websocket')
    expect(await dispatchCall(table, 'no.such.call', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } })
    expect(await dispatchCall(table, 'conversations.get', { id: 5 })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED' }
    })
    expect(await dispatchCall(table, 'conversations.get', { id: 'conv_missing' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' }
    })
    expect(await dispatchCall(table, 'settings.update', { maxIterations: 0 })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED' }
    })
    const created = await dispatchCall(table, 'conversations.create', { title: 'Hello' })
    expect(created).toMatchObject({ ok: true, data: { title: 'Hello' } })
  })

  it('conversations.get says which published events its snapshot already holds', async () => {
    const table = createBridgeHandlers(temp.app, 'websocket')
    const seqs: number[] = []
    const unsubscribe = temp.app.events.subscribe((event) => {
      if (event.kind === 'agent') seqs.push(event.seq)
    })
    const conversation = temp.app.store.createConversation()
    const runId = 'run_seq'
    for (const delta of ['a', 'b']) {
      temp.app['emit']({ type: 'text_delta', runId, conversationId: conversation.id, at: Date.now(), messageId: 'msg_seq', delta })
    }
    const detail = await dispatchCall(table, 'conversations.get', { id: conversation.id })
    temp.app['emit']({ type: 'text_delta', runId, conversationId: conversation.id, at: Date.now(), messageId: 'msg_seq', delta: 'c' })
    // Published once its batch commits (a tick later, or now).
    expect(seqs).toHaveLength(2)
    temp.app.store.flush()
    unsubscribe()
    expect(detail.ok && (detail.data as { lastEventSeq: number }).lastEventSeq).toBe(seqs[1])
    expect(seqs[2]).toBe(seqs[1]! + 1)
    expect(detail.ok && (detail.data as { messages: Array<{ content: string }> }).messages[0]!.content).toBe('ab')
  })

  it('a run with no model configured comes back as NOT_CONFIGURED', async () => {
    const table = createBridgeHandlers(temp.app, 'websocket')
    await dispatchCall(table, 'settings.update', { model: '' })
    const conversation = temp.app.store.createConversation()
    const result = await dispatchCall(table, 'agent.send', { conversationId: conversation.id, text: 'hi' })
    expect(result).toMatchObject({ ok: false, error: { code: 'NOT_CONFIGURED' } })
    await dispatchCall(table, 'settings.update', { model: 'scripted-model' })
  })
})

describe('web host', () => {
  const wsUrl = (token: string) => `ws://127.0.0.1:${host.port}/bridge?token=${token}`

  it('serves the renderer and refuses paths outside it', async () => {
    const index = await fetch(`http://127.0.0.1:${host.port}/`)
    expect(index.status).toBe(200)
    expect(await index.text()).toContain('DeskClaw')
    expect((await fetch(`http://127.0.0.1:${host.port}/assets/app.js`)).headers.get('content-type')).toMatch(/javascript/)
    expect((await fetch(`http://127.0.0.1:${host.port}/%2e%2e/%2e%2e/etc/passwd`)).status).toBeGreaterThanOrEqual(403)
    expect((await fetch(`http://127.0.0.1:${host.port}/missing.js`)).status).toBe(404)
  })

  it('refuses a WebSocket without the right token', async () => {
    await expect(connect(wsUrl('wrong'))).rejects.toThrow(/403/)
  })

  it('refuses a WebSocket from another origin even with the token', async () => {
    await expect(connect(wsUrl(host.token), 'http://evil.example')).rejects.toThrow(/403/)
  })

  it('answers calls and pushes events to a connected client', async () => {
    const socket = await connect(wsUrl(host.token), `http://127.0.0.1:${host.port}`)
    const messages: WireMessage[] = []
    socket.on('message', (data) => messages.push(JSON.parse(String(data)) as WireMessage))
    socket.send(JSON.stringify({ id: 1, call: 'conversations.create', input: { title: 'From the web' } }))
    socket.send('not json at all')
    socket.send(JSON.stringify({ id: 2, call: 'conversations.list', input: {} }))
    await until(() => messages.filter((m) => 'id' in m).length === 2)
    const reply = messages.find((m) => 'id' in m && m.id === 2)
    expect(reply && 'result' in reply && reply.result.ok).toBe(true)
    const events = messages.filter((m): m is { event: BridgeEvent } => 'event' in m).map((m) => m.event.kind)
    expect(events).toContain('conversations_changed')
    // A connected client is an approval front door.
    expect(temp.app.approvals.hasFrontDoor()).toBe(true)
    socket.close()
    await until(() => !temp.app.approvals.hasFrontDoor())
  })

  it('listens on loopback only', async () => {
    await expect(startWebHost({ app: temp.app, rendererDir, host: '0.0.0.0' })).rejects.toThrow(/loopback/)
  })
})

describe('isTrustedSender', () => {
  const trusted = { appOrigin: 'app://deskclaw', devServerUrl: 'http://localhost:5173/' }
  it.each([
    [{ senderType: 'window', frameUrl: 'app://deskclaw/index.html', isTopFrame: true }, true],
    [{ senderType: 'window', frameUrl: 'app://deskclaw/palette.html', isTopFrame: true }, true],
    [{ senderType: 'window', frameUrl: 'http://localhost:5173/', isTopFrame: true }, true],
    [{ senderType: 'window', frameUrl: 'file:///app/out/renderer/index.html', isTopFrame: true }, false],
    [{ senderType: 'window', frameUrl: 'file:///etc/passwd', isTopFrame: true }, false],
    [{ senderType: 'window', frameUrl: 'app://deskclaw.evil/index.html', isTopFrame: true }, false],
    [{ senderType: 'window', frameUrl: 'app://evil/index.html', isTopFrame: true }, false],
    [{ senderType: 'window', frameUrl: 'app://deskclaw:81/index.html', isTopFrame: true }, false],
    [{ senderType: 'window', frameUrl: 'app://user@deskclaw/index.html', isTopFrame: true }, false],
    [{ senderType: 'window', frameUrl: 'https://deskclaw/index.html', isTopFrame: true }, false],
    [{ senderType: 'window', frameUrl: 'http://localhost:5173.evil.com/', isTopFrame: true }, false],
    [{ senderType: 'window', frameUrl: 'http://localhost:5174/', isTopFrame: true }, false],
    [{ senderType: 'window', frameUrl: 'https://localhost:5173/', isTopFrame: true }, false],
    [{ senderType: 'webview', frameUrl: 'app://deskclaw/index.html', isTopFrame: true }, false],
    [{ senderType: 'window', frameUrl: 'app://deskclaw/index.html', isTopFrame: false }, false],
    [{ senderType: 'window', frameUrl: null, isTopFrame: true }, false],
    [{ senderType: 'window', frameUrl: 'not a url', isTopFrame: true }, false]
  ])('%j → %s', (facts, expected) => {
    expect(isTrustedSender(facts, trusted)).toBe(expected)
  })
  it('trusts no http origin without a dev server', () => {
    expect(
      isTrustedSender({ senderType: 'window', frameUrl: 'http://localhost:5173/', isTopFrame: true }, { appOrigin: 'app://deskclaw' })
    ).toBe(false)
  })
})

function connect(url: string, origin?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, origin ? { origin } : {})
    socket.once('open', () => resolve(socket))
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    socket.once('error', reject)
  })
}

async function until(condition: () => boolean): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > 5_000) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
