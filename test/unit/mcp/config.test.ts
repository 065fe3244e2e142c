import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readMcpConfig, transportOf, writeMcpConfig } from '../../../src/main/mcp'

/** mcp.json in the Claude Desktop / Cursor shape (docs/tools.md, "MCP servers"). */
function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'deskclaw-mcp-config-')), 'mcp.json')
  writeFileSync(path, text)
  return path
}

describe('readMcpConfig', () => {
  it('reads the Claude Desktop and Cursor shapes as they are', () => {
    const read = readMcpConfig(
      file(
        JSON.stringify({
          mcpServers: {
            filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me'], env: { DEBUG: '1' } },
            remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
            legacy: { type: 'sse', url: 'http://127.0.0.1:3001/sse' },
            cline: { command: 'uvx', args: ['mcp-server-git'], disabled: true, autoApprove: ['git_status'], alwaysAllow: ['kept'] }
          },
          globalShortcut: 'Ctrl+Space'
        })
      )
    )
    expect(read.problems).toEqual([])
    expect([...read.servers.keys()]).toEqual(['filesystem', 'remote', 'legacy', 'cline'])
    expect([...read.servers.values()].map(transportOf)).toEqual(['stdio', 'streamable-http', 'sse', 'stdio'])
    // Keys DeskClaw does not know are kept, at the top and in an entry.
    expect(read.rest).toEqual({ globalShortcut: 'Ctrl+Space' })
    expect(read.servers.get('cline')).toMatchObject({ alwaysAllow: ['kept'] })
  })

  it('a missing file is no servers; a broken one is no servers and says why', () => {
    expect(readMcpConfig(join(tmpdir(), 'no-such-dir-deskclaw', 'mcp.json'))).toEqual({ servers: new Map(), problems: [], rest: {} })
    expect(readMcpConfig(file('{ "mcpServers": ')).problems[0]).toMatch(/not valid JSON/)
    expect(readMcpConfig(file('[]')).problems[0]).toMatch(/expected an object/)
    expect(readMcpConfig(file('{"mcpServers": []}')).problems[0]).toMatch(/must be an object/)
  })

  it('leaves out an entry it cannot use, with the reason, and keeps the rest', () => {
    const read = readMcpConfig(
      file(JSON.stringify({ mcpServers: { good: { command: 'x' }, 'bad name!': { command: 'x' }, empty: {}, wrong: { command: 'x', args: 'not-a-list' } } }))
    )
    expect([...read.servers.keys()]).toEqual(['good'])
    expect(read.problems).toEqual([
      expect.stringMatching(/"bad name!" left out: its name/),
      expect.stringMatching(/"empty" left out: it needs a "command"/),
      expect.stringMatching(/"wrong" left out: args:/)
    ])
  })

  it('writes the servers back with the other keys and reads the same', async () => {
    const path = file('{}')
    const servers = new Map([['a', { command: 'node', args: ['s.js'], timeout: 5 }]])
    await writeMcpConfig(path, servers, { globalShortcut: 'x' })
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ globalShortcut: 'x', mcpServers: { a: { command: 'node', args: ['s.js'], timeout: 5 } } })
    expect(readMcpConfig(path).servers.get('a')).toEqual({ command: 'node', args: ['s.js'], timeout: 5 })
  })
})
