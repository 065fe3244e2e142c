/**
 * MCP over stdio against @modelcontextprotocol/server-everything, run from node_modules with this
 * Node (docs/tools.md, "MCP servers"): a Claude-Desktop-shaped mcp.json read unchanged, tools as
 * `mcp__everything__*`, echo and get-sum called through the agent loop, the tiny image reaching the
 * timeline and the model request, a server killed mid-call, and the tool list refreshed on
 * `notifications/tools/list_changed`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { AgentEventOf } from '../../src/shared'
import { mcpConfigPath } from '../../src/main/mcp'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import { createTempApp, runPrompt, scriptedApps, type TempApp } from '../helpers/temp-app'
import { EVERYTHING_SERVER, TINY_PNG_PREFIX, waitFor } from '../helpers/mcp'

const apps = scriptedApps()

type Message = { role: string; content: unknown }
const imageParts = (messages: Message[]) =>
  messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type: string; image_url?: { url: string } }>) : [])).filter((p) => p.type === 'image_url')

/** The file exactly as a Claude Desktop user has it (the `env` names a variable only this server gets). */
const CLAUDE_DESKTOP_CONFIG = `{
  "mcpServers": {
    "everything": {
      "command": "${process.execPath}",
      "args": ["${EVERYTHING_SERVER}", "stdio"],
      "env": { "EVERYTHING_TOKEN": "only-for-this-server" }
    }
  },
  "globalShortcut": "Ctrl+Space"
}
`

async function withEverything(app: TempApp, config = CLAUDE_DESKTOP_CONFIG): Promise<void> {
  writeFileSync(mcpConfigPath(app.dataDir), config)
  await app.app.mcp.reload()
  await app.app.mcp.ready()
}

describe('MCP over stdio (server-everything)', () => {
  it('reads a Claude Desktop config unchanged, lists the tools, and runs echo and get-sum through the loop (asked in supervised mode)', async () => {
    const app = await apps.setup([
      { toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'hello from DeskClaw' } }, { name: 'mcp__everything__get-sum', args: { a: 2, b: 3 } }] },
      { text: 'Echoed and added.' }
    ])
    await withEverything(app)

    const overview = app.app.mcp.overview()
    expect(overview.problems).toEqual([])
    const server = overview.servers[0]!
    expect(server).toMatchObject({ name: 'everything', transport: 'stdio', state: 'ready', serverInfo: { name: 'mcp-servers/everything' } })
    expect(server.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'get-env']))
    expect(app.app.registry.names()).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum']))
    // The JSON Schema goes to the model as the server wrote it.
    const declared = app.app.registry.toModelTools().find((tool) => tool.name === 'mcp__everything__get-sum')!
    expect(JSON.stringify(declared.inputSchema)).toContain('"required":["a","b"]')
    // Arguments are validated against it before anything runs.
    expect(app.app.registry.checkArgs('mcp__everything__get-sum', { a: 'two' })).toMatchObject({ ok: false })

    app.setApprover('allow_once')
    const { outcome, events } = await runPrompt(app, 'echo and add')
    expect(outcome).toMatchObject({ status: 'completed' })
    const judged = events.filter((e): e is AgentEventOf<'risk_assessed'> => e.type === 'risk_assessed')
    expect(judged.map((e) => e.assessment.verdict)).toEqual(['ask', 'ask'])
    expect(judged[0]!.assessment.findings.map((f) => f.rule)).toContain('tool.mcp_execute')
    const completed = events.filter((e): e is AgentEventOf<'tool_call_completed'> => e.type === 'tool_call_completed')
    expect(completed.map((e) => e.status)).toEqual(['completed', 'completed'])
    const toolMessages = apps.server().requests[1]!.body.messages.filter((m: Message) => m.role === 'tool')
    expect(toolMessages.map((m: Message) => m.content).join('\n')).toContain('Echo: hello from DeskClaw')
    expect(toolMessages.map((m: Message) => m.content).join('\n')).toContain('The sum of 2 and 3 is 5.')

    // The file is as the user wrote it: nothing rewrote it.
    expect(readFileSync(mcpConfigPath(app.dataDir), 'utf8')).toBe(CLAUDE_DESKTOP_CONFIG)
  })

  it('gives a stdio server the command allowlist plus its own env, never the model key or other variables', async () => {
    const server = await startScriptedOpenAI([])
    // The app's environment: the model's key, a credential nobody allowed, and one the user allowed for commands.
    const env = { PATH: process.env.PATH, DESKCLAW_TEST_MODEL_KEY: 'sk-model-key-0123456789', AWS_SECRET_ACCESS_KEY: 'aws-secret', ALLOWED_FOR_COMMANDS: 'yes' }
    const app = createTempApp(server.url, { apiKeyEnv: 'DESKCLAW_TEST_MODEL_KEY', allowedEnv: ['ALLOWED_FOR_COMMANDS'] }, env)
    apps.adopt({ server, temp: app })
    await withEverything(app)
    const outcome = await app.app.mcp.connection('everything').call('get-env', {}, new AbortController().signal)
    expect(outcome.ok).toBe(true)
    const seen = JSON.parse(outcome.ok && outcome.result.content[0]!.type === 'text' ? outcome.result.content[0]!.text : '{}') as Record<string, string>
    expect(seen.EVERYTHING_TOKEN).toBe('only-for-this-server')
    expect(seen.ALLOWED_FOR_COMMANDS).toBe('yes')
    expect(seen.PATH).toBe(process.env.PATH)
    expect(seen.DESKCLAW_TEST_MODEL_KEY).toBeUndefined()
    expect(seen.AWS_SECRET_ACCESS_KEY).toBeUndefined()
    expect(JSON.stringify(seen)).not.toContain('sk-model-key-0123456789')
  })

  it('receives the tiny image into the timeline, the store and the model request', async () => {
    const app = await apps.setup([{ toolCalls: [{ name: 'mcp__everything__get-tiny-image', args: {} }] }, { text: 'A tiny logo.' }], { imageInput: 'on' })
    await withEverything(app)
    app.setApprover('allow_once')
    const { events, conversationId } = await runPrompt(app, 'show me the image')

    const completed = events.find((e): e is AgentEventOf<'tool_call_completed'> => e.type === 'tool_call_completed')!
    expect(completed).toMatchObject({ status: 'completed', attachments: [{ kind: 'image', mediaType: 'image/png' }] })
    expect(completed.display).toEqual({ key: 'result.done', params: { server: 'everything', tool: 'get-tiny-image' } })
    const record = app.app.store.getConversation(conversationId)!.toolCalls[0]!
    const stored = app.app.store.getAttachment(record.attachments![0]!.id)!
    expect(stored.data.toString('base64').startsWith(TINY_PNG_PREFIX)).toBe(true)

    const second: Message[] = apps.server().requests[1]!.body.messages
    const images = imageParts(second)
    expect(images).toHaveLength(1)
    expect(images[0]!.image_url!.url.startsWith(`data:image/png;base64,${TINY_PNG_PREFIX}`)).toBe(true)
  })

  it('survives the server being killed mid-call: an error result with the tail of its stderr, and the next call starts it again', async () => {
    const app = await apps.setup([])
    await withEverything(app)
    const connection = app.app.mcp.connection('everything')
    const firstPid = connection.pid!
    expect(firstPid).toBeGreaterThan(0)
    const tool = app.app.registry.get('mcp__everything__trigger-long-running-operation')!
    const ctx = { workspace: app.workspace, conversationId: 'c', runId: 'r', callId: 'k', signal: new AbortController().signal, onOutput: () => {} }
    const running = tool.run({ duration: 30, steps: 30 }, ctx)
    await new Promise((resolve) => setTimeout(resolve, 500))
    process.kill(firstPid, 'SIGKILL')
    const failed = await running
    expect(failed.isError).toBe(true)
    expect(failed.forLlm).toMatch(/MCP server "everything" failed during trigger-long-running-operation/)
    expect(failed.forLlm).toContain('Last lines of its log:')
    // The server's own stderr line from its start is in the tail.
    expect(failed.forLlm).toMatch(/Starting default \(STDIO\) server|connected to mcp-servers\/everything/)
    expect(failed.forLlm).toContain('started again on the next call')
    expect(failed.display).toEqual({ key: 'result.serverFailed', params: { server: 'everything', tool: 'trigger-long-running-operation' } })

    const echo = await app.app.registry.get('mcp__everything__echo')!.run({ message: 'again' }, ctx)
    expect(echo).toMatchObject({ isError: false, forLlm: 'Echo: again' })
    expect(connection.pid).not.toBe(firstPid)
    expect(connection.starts).toBe(2)
  })

  it('streams the server’s progress as live output, and Stop cancels the call without restarting the server', async () => {
    const app = await apps.setup([])
    await withEverything(app)
    const connection = app.app.mcp.connection('everything')
    const tool = app.app.registry.get('mcp__everything__trigger-long-running-operation')!
    const output: string[] = []
    const base = { workspace: app.workspace, conversationId: 'c', runId: 'r', callId: 'k', onOutput: (_: string, chunk: string) => output.push(chunk) }
    const done = await tool.run({ duration: 0.4, steps: 2 }, { ...base, signal: new AbortController().signal })
    expect(done.isError).toBe(false)
    // The last notification may come after the answer, when nobody listens for it any more.
    expect(output[0]).toBe('progress 1/2\n')
    expect(output.every((line) => /^progress [12]\/2\n$/.test(line))).toBe(true)

    const stop = new AbortController()
    const running = tool.run({ duration: 30, steps: 30 }, { ...base, signal: stop.signal })
    setTimeout(() => stop.abort(), 300)
    const cancelled = await running
    expect(cancelled).toMatchObject({ isError: true, forLlm: 'Cancelled by the user.' })
    expect(connection.starts).toBe(1)
    expect(connection.state).toBe('ready')
  })

  it('refreshes the tool list on notifications/tools/list_changed', async () => {
    const app = await apps.setup([])
    let changes = 0
    app.app.registry.onChange(() => changes++)
    await withEverything(app)
    const connection = app.app.mcp.connection('everything')
    // server-everything registers tools that depend on the client's capabilities once initialized,
    // and says so with tools/list_changed.
    await waitFor(() => connection.listChanges > 0, 'a tools/list_changed notification')
    await waitFor(() => app.app.registry.names().includes('mcp__everything__simulate-research-query'), 'the refreshed tool')
    expect(changes).toBeGreaterThan(1)
  })
})
