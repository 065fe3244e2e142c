/**
 * An MCP server that hangs, writes garbage, exits or changes its tools
 * (test/fixtures/mcp/misbehaving-server.mjs), and how the user's trust in a server is judged
 * (docs/tools.md, "MCP servers"; docs/risk.md, "MCP tools").
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AgentEventOf, McpServerConfig } from '../../src/shared'
import { mcpConfigPath } from '../../src/main/mcp'
import { runPrompt, scriptedApps, type TempApp } from '../helpers/temp-app'
import { waitFor } from '../helpers/mcp'

const apps = scriptedApps()
const SERVER = join(__dirname, '../fixtures/mcp/misbehaving-server.mjs')

async function withServer(app: TempApp, extra: Partial<McpServerConfig> = {}): Promise<void> {
  const config = { mcpServers: { odd: { command: process.execPath, args: [SERVER], ...extra } } }
  writeFileSync(mcpConfigPath(app.dataDir), JSON.stringify(config))
  await app.app.mcp.reload()
  await app.app.mcp.ready()
}

function ctxFor(app: TempApp) {
  return { workspace: app.workspace, conversationId: 'c', runId: 'r', callId: 'k', signal: new AbortController().signal, onOutput: () => {} }
}

describe('a misbehaving MCP server', () => {
  it('that hangs past its timeout gives an error with its stderr tail, and is restarted on the next call', async () => {
    const app = await apps.setup([])
    await withServer(app, { timeout: 1 })
    const connection = app.app.mcp.connection('odd')
    const firstPid = connection.pid
    const hung = await app.app.registry.get('mcp__odd__hang')!.run({}, ctxFor(app))
    expect(hung.isError).toBe(true)
    expect(hung.forLlm).toMatch(/failed during hang: .*timed out/i)
    expect(hung.forLlm).toContain('hang: not answering')
    expect(hung.forLlm).toContain(`misbehaving server ${firstPid} started`)
    const next = await app.app.registry.get('mcp__odd__read-note')!.run({ id: '7' }, ctxFor(app))
    expect(next.isError).toBe(false)
    // Text first; structured content the text does not already say follows as JSON.
    expect(next.forLlm).toBe('note 7\nStructured content:\n{\n  "id": "7",\n  "text": "note 7"\n}')
    expect(connection.pid).not.toBe(firstPid)
  })

  it('that writes garbage instead of an answer gives an error at once (not after the timeout)', async () => {
    const app = await apps.setup([])
    await withServer(app, { timeout: 60 })
    const started = Date.now()
    const result = await app.app.registry.get('mcp__odd__garbage')!.run({}, ctxFor(app))
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(result.isError).toBe(true)
    expect(result.forLlm).toMatch(/sent something that is not MCP/)
    expect(result.forLlm).toContain('garbage: writing junk to stdout')
    expect((await app.app.registry.get('mcp__odd__read-note')!.run({ id: '1' }, ctxFor(app))).isError).toBe(false)
  })

  it('that exits mid-call gives an error with its last words and comes back on the next call', async () => {
    const app = await apps.setup([])
    await withServer(app)
    const result = await app.app.registry.get('mcp__odd__crash')!.run({}, ctxFor(app))
    expect(result.isError).toBe(true)
    expect(result.forLlm).toContain('crash: segfault imminent (simulated)')
    await waitFor(() => app.app.mcp.status('odd').state === 'failed', 'the failed state')
    expect((await app.app.registry.get('mcp__odd__read-note')!.run({ id: '2' }, ctxFor(app))).forLlm).toMatch(/^note 2\n/)
    expect(app.app.mcp.status('odd')).toMatchObject({ state: 'ready', starts: 2 })
  })

  it('that adds a tool: list_changed brings it into the registry, callable', async () => {
    const app = await apps.setup([])
    await withServer(app)
    expect(app.app.registry.get('mcp__odd__extra-1')).toBeUndefined()
    await app.app.registry.get('mcp__odd__add-tool')!.run({}, ctxFor(app))
    await waitFor(() => app.app.registry.get('mcp__odd__extra-1') !== undefined, 'the added tool')
    expect((await app.app.registry.get('mcp__odd__extra-1')!.run({}, ctxFor(app))).forLlm).toBe('extra 1')
  })

  it('that is not there fails with a reason, and its tools are absent', async () => {
    const app = await apps.setup([])
    writeFileSync(mcpConfigPath(app.dataDir), JSON.stringify({ mcpServers: { gone: { command: '/nonexistent/mcp-server' } } }))
    await app.app.mcp.reload()
    await app.app.mcp.ready()
    expect(app.app.mcp.status('gone')).toMatchObject({ state: 'failed', tools: [] })
    expect(app.app.mcp.status('gone').error).toMatch(/ENOENT/)
  })
})

describe('how MCP tools are judged', () => {
  const calls = { toolCalls: [{ name: 'mcp__odd__read-note', args: { id: '1' } }, { name: 'mcp__odd__add-tool', args: {} }] }
  const verdicts = async (app: TempApp) => {
    app.setApprover('deny')
    const { events } = await runPrompt(app, 'go')
    return events.filter((e): e is AgentEventOf<'risk_assessed'> => e.type === 'risk_assessed').map((e) => [e.tool, e.assessment.verdict])
  }

  it('every tool asks in supervised mode by default, even one the server calls read-only', async () => {
    const app = await apps.setup([calls, { text: 'done' }])
    await withServer(app)
    expect(await verdicts(app)).toEqual([
      ['mcp__odd__read-note', 'ask'],
      ['mcp__odd__add-tool', 'ask']
    ])
  })

  it('readOnlyHint makes a read only when the user trusts the server’s hints', async () => {
    const app = await apps.setup([calls, { text: 'done' }])
    await withServer(app, { trustReadOnlyHints: true })
    expect(await verdicts(app)).toEqual([
      ['mcp__odd__read-note', 'allow'],
      ['mcp__odd__add-tool', 'ask']
    ])
  })

  it('a tool named in autoApprove runs without asking, the others still ask', async () => {
    const one = await apps.setup([calls, { text: 'done' }])
    await withServer(one, { autoApprove: ['add-tool'] })
    expect(await verdicts(one)).toEqual([
      ['mcp__odd__read-note', 'ask'],
      ['mcp__odd__add-tool', 'allow']
    ])
  })

  it('"Always allow" on an MCP tool saves a rule for that tool of that server; the next call runs without asking', async () => {
    const call = { toolCalls: [{ name: 'mcp__odd__read-note', args: { id: '1' } }] }
    const app = await apps.setup([call, { text: 'one' }, { toolCalls: [{ name: 'mcp__odd__read-note', args: { id: '2' } }] }, { text: 'two' }])
    await withServer(app)
    app.setApprover('allow_always')
    const first = await runPrompt(app, 'first')
    const judged = first.events.find((e): e is AgentEventOf<'risk_assessed'> => e.type === 'risk_assessed')!
    expect(judged.assessment.verdict).toBe('ask')
    expect(judged.assessment.alwaysRule).toEqual({ tool: 'mcp__odd__read-note', match: ['odd'], decision: 'allow', why: 'Allowed always by the user' })
    app.setApprover(null)
    const second = await runPrompt(app, 'second')
    expect(second.events.filter((e) => e.type === 'risk_assessed').map((e) => (e as AgentEventOf<'risk_assessed'>).assessment.verdict)).toEqual(['allow'])
    expect(second.events.some((e) => e.type === 'approval_requested')).toBe(false)
  })

  it('"*" in autoApprove allows every tool of the server', async () => {
    const app = await apps.setup([calls, { text: 'done' }])
    await withServer(app, { autoApprove: ['*'] })
    expect(await verdicts(app)).toEqual([
      ['mcp__odd__read-note', 'allow'],
      ['mcp__odd__add-tool', 'allow']
    ])
  })
})
