/**
 * MCP over HTTP against @modelcontextprotocol/server-everything run from node_modules on a loopback
 * port (docs/tools.md, "MCP servers"): streamable HTTP with a `url` entry as Cursor writes it, the
 * SSE fallback for a server that only speaks SSE, echo and get-sum through the loop, the image into
 * the timeline and the model request, and a server killed mid-call. tools/list_changed over HTTP
 * with the misbehaving fixture's HTTP mode: server-everything sends its one change right after
 * `initialized`, before the client's GET stream is open, so that one never reaches any client.
 */
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEventOf } from '../../src/shared'
import { mcpConfigPath } from '../../src/main/mcp'
import { runPrompt, scriptedApps, type TempApp } from '../helpers/temp-app'
import { freePort, startEverythingHttp, TINY_PNG_PREFIX, waitFor, type EverythingHttp } from '../helpers/mcp'

const apps = scriptedApps()
let http: EverythingHttp | undefined
afterEach(async () => {
  await http?.stop()
  http = undefined
})

type Message = { role: string; content: unknown }

async function connect(app: TempApp, entry: Record<string, unknown>): Promise<void> {
  writeFileSync(mcpConfigPath(app.dataDir), JSON.stringify({ mcpServers: { everything: entry } }, null, 2))
  await app.app.mcp.reload()
  await app.app.mcp.ready()
}

describe('MCP over streamable HTTP (server-everything)', () => {
  it('lists the tools, runs echo and get-sum, and brings the image into the timeline and the model request', async () => {
    http = await startEverythingHttp('streamableHttp')
    const app = await apps.setup(
      [
        { toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'over http' } }, { name: 'mcp__everything__get-sum', args: { a: 40, b: 2 } }] },
        { toolCalls: [{ name: 'mcp__everything__get-tiny-image', args: {} }] },
        { text: 'All three worked.' }
      ],
      { imageInput: 'on' }
    )
    await connect(app, { url: http.url, headers: { 'X-Test': 'deskclaw' } })
    expect(app.app.mcp.status('everything')).toMatchObject({ transport: 'streamable-http', state: 'ready', serverInfo: { name: 'mcp-servers/everything' } })
    expect(app.app.registry.names()).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__everything__get-tiny-image']))

    app.setApprover('allow_once')
    const { outcome, events } = await runPrompt(app, 'echo, add, image')
    expect(outcome).toMatchObject({ status: 'completed' })
    const completed = events.filter((e): e is AgentEventOf<'tool_call_completed'> => e.type === 'tool_call_completed')
    expect(completed.map((e) => e.status)).toEqual(['completed', 'completed', 'completed'])
    const toolText = apps.server().requests[1]!.body.messages.filter((m: Message) => m.role === 'tool').map((m: Message) => m.content).join('\n')
    expect(toolText).toContain('Echo: over http')
    expect(toolText).toContain('The sum of 40 and 2 is 42.')
    expect(completed[2]!.attachments).toEqual([expect.objectContaining({ kind: 'image', mediaType: 'image/png' })])
    const images = (apps.server().requests[2]!.body.messages as Message[])
      .flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type: string; image_url?: { url: string } }>) : []))
      .filter((p) => p.type === 'image_url')
    expect(images).toHaveLength(1)
    expect(images[0]!.image_url!.url.startsWith(`data:image/png;base64,${TINY_PNG_PREFIX}`)).toBe(true)
  })

  it('survives the server being killed mid-call: an error result, and the next call reconnects to the restarted server', async () => {
    http = await startEverythingHttp('streamableHttp')
    const app = await apps.setup([])
    await connect(app, { url: http.url })
    const ctx = { workspace: app.workspace, conversationId: 'c', runId: 'r', callId: 'k', signal: new AbortController().signal, onOutput: () => {} }
    const running = app.app.registry.get('mcp__everything__trigger-long-running-operation')!.run({ duration: 30, steps: 30 }, ctx)
    await new Promise((resolve) => setTimeout(resolve, 500))
    const url = http.url
    await http.stop()
    const failed = await running
    expect(failed.isError).toBe(true)
    expect(failed.forLlm).toMatch(/MCP server "everything" failed during trigger-long-running-operation/)
    expect(failed.forLlm).toContain('started again on the next call')

    // The user's server comes back on the same port; the next call opens a new session.
    const port = Number(new URL(url).port)
    http = await startEverythingHttpOn(port)
    const echo = await app.app.registry.get('mcp__everything__echo')!.run({ message: 'back' }, ctx)
    expect(echo).toMatchObject({ isError: false, forLlm: 'Echo: back' })
    expect(app.app.mcp.status('everything').starts).toBe(2)
  })
})

describe('tools/list_changed over streamable HTTP', () => {
  it('a tool the server adds during the session arrives on its event stream and is callable', async () => {
    const app = await apps.setup([])
    const port = await freePort()
    const child = spawn(process.execPath, [join(__dirname, '../fixtures/mcp/misbehaving-server.mjs'), 'http', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] })
    http = { url: `http://127.0.0.1:${port}/mcp`, child, stop: async () => void child.kill('SIGKILL') }
    await new Promise<void>((resolve, reject) => {
      let log = ''
      child.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString()
        if (log.includes('listening on port')) resolve()
      })
      child.once('exit', (code) => reject(new Error(`fixture exited ${code}: ${log}`)))
    })
    await connect(app, { url: http.url })
    expect(app.app.mcp.status('everything')).toMatchObject({ transport: 'streamable-http', state: 'ready' })
    const ctx = { workspace: app.workspace, conversationId: 'c', runId: 'r', callId: 'k', signal: new AbortController().signal, onOutput: () => {} }
    expect(app.app.registry.get('mcp__everything__extra-1')).toBeUndefined()
    await app.app.registry.get('mcp__everything__add-tool')!.run({}, ctx)
    await waitFor(() => app.app.registry.get('mcp__everything__extra-1') !== undefined, 'the added tool over HTTP')
    expect(app.app.mcp.connection('everything').listChanges).toBeGreaterThan(0)
    expect((await app.app.registry.get('mcp__everything__extra-1')!.run({}, ctx)).forLlm).toBe('extra 1')
  })
})

describe('MCP over SSE (older servers)', () => {
  it('falls back to SSE when streamable HTTP fails, and "type": "sse" goes straight to it', async () => {
    http = await startEverythingHttp('sse')
    const app = await apps.setup([])
    await connect(app, { url: http.url })
    expect(app.app.mcp.status('everything')).toMatchObject({ state: 'ready' })
    expect(app.app.mcp.status('everything').log.join('\n')).toMatch(/streamable HTTP failed .*trying SSE/)
    const ctx = { workspace: app.workspace, conversationId: 'c', runId: 'r', callId: 'k', signal: new AbortController().signal, onOutput: () => {} }
    expect(await app.app.registry.get('mcp__everything__echo')!.run({ message: 'sse' }, ctx)).toMatchObject({ forLlm: 'Echo: sse' })

    await connect(app, { type: 'sse', url: http.url })
    expect(app.app.mcp.status('everything')).toMatchObject({ transport: 'sse', state: 'ready' })
    expect(await app.app.registry.get('mcp__everything__get-sum')!.run({ a: 1, b: 1 }, ctx)).toMatchObject({ forLlm: 'The sum of 1 and 1 is 2.' })
  })
})

async function startEverythingHttpOn(port: number): Promise<EverythingHttp> {
  const { spawn } = await import('node:child_process')
  const { EVERYTHING_SERVER } = await import('../helpers/mcp')
  const child = spawn(process.execPath, [EVERYTHING_SERVER, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] })
  await new Promise<void>((resolve, reject) => {
    let log = ''
    const onData = (chunk: Buffer) => {
      log += chunk.toString()
      if (/listening on port/i.test(log)) resolve()
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${log}`)))
  })
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGKILL')
      })
  }
}
