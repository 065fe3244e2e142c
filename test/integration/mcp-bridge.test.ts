/**
 * Settings → MCP servers over the bridge (docs/risk.md, "MCP tools"): a page may turn a server
 * off, allow less or remove it, but a new command or address, a tool allowed without asking and
 * trusted read-only hints need a yes at this computer, like autonomy "full".
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DeskclawApp, type RiskySettingChange } from '../../src/main/app'
import { createBridgeHandlers } from '../../src/main/bridge/handlers'
import { mcpConfigPath, mcpTrustChanges } from '../../src/main/mcp'
import { EVERYTHING_SERVER } from '../helpers/mcp'

const ENTRY = { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] }
let cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const step of cleanup.reverse()) await step()
  cleanup = []
})

function appWith(confirm?: (changes: RiskySettingChange[]) => boolean) {
  const root = mkdtempSync(join(tmpdir(), 'deskclaw-mcp-bridge-'))
  const asked: RiskySettingChange[][] = []
  const app = DeskclawApp.create({
    dataDir: join(root, 'data'),
    overrides: { workspace: root },
    env: {},
    ...(confirm ? { confirmSetting: async (changes) => (asked.push(changes), confirm(changes)) } : {})
  })
  cleanup.push(async () => {
    await app.close()
    rmSync(root, { recursive: true, force: true })
  })
  return { app, handlers: createBridgeHandlers(app, 'websocket'), asked }
}

describe('mcp.save over the bridge', () => {
  it('refuses a new server when nobody at the computer can confirm it, and writes nothing', async () => {
    const { app, handlers } = appWith()
    await expect(handlers['mcp.save']({ name: 'everything', config: ENTRY })).rejects.toMatchObject({ code: 'FORBIDDEN', text: { key: 'errors.settings.riskyNeedsConfirmation' } })
    expect(existsSync(mcpConfigPath(join(app.settings().workspace, 'data')))).toBe(false)
    expect(app.mcp.overview().servers).toEqual([])
  })

  it('starts a confirmed server; turning it off and allowing less need no confirmation, allowing more does', async () => {
    const { app, handlers, asked } = appWith(() => true)
    const saved = await handlers['mcp.save']({ name: 'everything', config: ENTRY })
    expect(asked).toHaveLength(1)
    expect(asked[0]![0]).toMatchObject({ key: 'mcpServer', why: { en: expect.stringContaining(EVERYTHING_SERVER) } })
    expect(saved.servers[0]).toMatchObject({ name: 'everything' })
    await app.mcp.ready()
    expect(app.mcp.status('everything').state).toBe('ready')
    expect(JSON.parse(readFileSync(mcpConfigPath(join(app.settings().workspace, 'data')), 'utf8'))).toEqual({ mcpServers: { everything: ENTRY } })

    await handlers['mcp.save']({ name: 'everything', config: { ...ENTRY, autoApprove: ['echo'] } })
    expect(asked).toHaveLength(2)
    await handlers['mcp.save']({ name: 'everything', config: { ...ENTRY, autoApprove: [] } })
    await handlers['mcp.save']({ name: 'everything', config: { ...ENTRY, disabled: true } })
    expect(asked).toHaveLength(2)
    expect(app.mcp.status('everything').state).toBe('disabled')
    expect(app.registry.names().some((name) => name.startsWith('mcp__'))).toBe(false)
    await handlers['mcp.remove']({ name: 'everything' })
    expect(app.mcp.overview().servers).toEqual([])
  })

  it('a "no" leaves the file as it was', async () => {
    const { app, handlers } = appWith(() => false)
    const file = mcpConfigPath(join(app.settings().workspace, 'data'))
    writeFileSync(file, JSON.stringify({ mcpServers: { everything: { ...ENTRY, disabled: true } } }))
    await app.mcp.reload()
    await expect(handlers['mcp.save']({ name: 'everything', config: { ...ENTRY, disabled: true, trustReadOnlyHints: true } })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      text: { key: 'errors.settings.riskyNotConfirmed' }
    })
    expect(JSON.parse(readFileSync(file, 'utf8')).mcpServers.everything.trustReadOnlyHints).toBeUndefined()
  })
})

describe('mcpTrustChanges', () => {
  it('names what gives more trust, and nothing for what gives less', () => {
    expect(mcpTrustChanges('s', undefined, ENTRY)).toHaveLength(1)
    expect(mcpTrustChanges('s', ENTRY, { ...ENTRY, args: ['other.js'] })).toHaveLength(1)
    expect(mcpTrustChanges('s', ENTRY, { ...ENTRY, env: { TOKEN: 'x' } })[0]!.why.en).toContain('(with TOKEN)')
    expect(mcpTrustChanges('s', ENTRY, { ...ENTRY, autoApprove: ['*'] })[0]!.why.en).toContain('all tools')
    expect(mcpTrustChanges('s', ENTRY, { ...ENTRY, trustReadOnlyHints: true })).toHaveLength(1)
    expect(mcpTrustChanges('s', { ...ENTRY, autoApprove: ['a', 'b'], trustReadOnlyHints: true }, { ...ENTRY, autoApprove: ['a'], disabled: true })).toEqual([])
    expect(mcpTrustChanges('s', { ...ENTRY, disabled: true }, ENTRY)).toEqual([])
  })
})
