/**
 * MCP through the built `deskclaw` command (docs/cli.md): `run --json` with server-everything
 * configured in a Claude-Desktop-shaped mcp.json in DESKCLAW_HOME, and `mcp list | tools | call`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, AgentEventOf, McpOverview } from '../../src/shared'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptedServer } from '../fixtures/scripted-types'
import { requireBuiltCli, runCli } from '../helpers/cli'
import { EVERYTHING_SERVER, TINY_PNG_PREFIX } from '../helpers/mcp'

requireBuiltCli()
let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

function home(): string {
  const root = mkdtempSync(join(tmpdir(), 'deskclaw-mcp-cli-'))
  const dataDir = join(root, 'home')
  mkdirSync(join(root, 'ws'), { recursive: true })
  mkdirSync(dataDir, { recursive: true })
  writeFileSync(
    join(dataDir, 'mcp.json'),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], env: {} } } }, null, 2)
  )
  return root
}

const deskclaw = (root: string, args: string[]) => runCli(args, { DESKCLAW_HOME: join(root, 'home') })

describe('deskclaw and MCP servers', () => {
  it('run --json calls echo and get-tiny-image; the image is in the events and the next model request', async () => {
    server = await startScriptedOpenAI([
      { toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'from the CLI' } }, { name: 'mcp__everything__get-tiny-image', args: {} }] },
      { text: 'Done.' }
    ])
    const root = home()
    const result = await deskclaw(root, [
      'run', '--json', '--approve', 'allow', '--image-input', 'on',
      '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'scripted-model', '--workspace', join(root, 'ws'),
      'echo and show the image'
    ])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as AgentEvent)
    const completed = events.filter((e): e is AgentEventOf<'tool_call_completed'> => e.type === 'tool_call_completed')
    expect(completed.map((e) => [e.tool, e.status])).toEqual([
      ['mcp__everything__echo', 'completed'],
      ['mcp__everything__get-tiny-image', 'completed']
    ])
    expect(completed[0]!.output).toContain('Echo: from the CLI')
    expect(completed[1]!.attachments).toEqual([expect.objectContaining({ kind: 'image', mediaType: 'image/png' })])
    const asked = events.filter((e) => e.type === 'approval_requested')
    expect(asked).toHaveLength(2)
    const second = JSON.stringify(server.requests[1]!.body)
    expect(second).toContain(`data:image/png;base64,${TINY_PNG_PREFIX}`)
  })

  it('mcp list, tools and call', async () => {
    const root = home()
    const list = await deskclaw(root, ['mcp', 'list', '--json'])
    expect(list.code).toBe(0)
    const overview = JSON.parse(list.stdout) as McpOverview
    expect(overview.servers[0]).toMatchObject({ name: 'everything', transport: 'stdio', state: 'ready' })

    const tools = await deskclaw(root, ['mcp', 'tools', 'everything'])
    expect(tools.code).toBe(0)
    expect(tools.stdout).toMatch(/mcp__everything__get-sum {2}\[asks\]/)

    const call = await deskclaw(root, ['mcp', 'call', 'everything', 'get-sum', '{"a": 2, "b": 3}'])
    expect(call).toMatchObject({ code: 0, stdout: 'The sum of 2 and 3 is 5.\n' })
    const image = await deskclaw(root, ['mcp', 'call', 'everything', 'get-tiny-image'])
    expect(image.stdout).toMatch(/\[image image\/png, \d+ bytes\]/)

    const bad = await deskclaw(root, ['mcp', 'call', 'everything', 'get-sum', '{not json'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/not JSON/)
    const missing = await deskclaw(root, ['mcp', 'tools', 'nowhere'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/no MCP server "nowhere"/)
  })
})
