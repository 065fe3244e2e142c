/**
 * Settings → MCP servers in a real Chromium against the web host (docs/tools.md, "MCP servers"):
 * server-everything from a Claude-Desktop-shaped mcp.json shows as ready over stdio with its tools
 * and log; a pasted entry that is not JSON is explained; a new server from the page is refused when
 * nobody at the computer can confirm it (docs/risk.md, "MCP tools"); turning a server off needs no
 * confirmation and takes its tools away; the section reads in Chinese.
 */
import { writeFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mcpConfigPath } from '../../src/main/mcp'
import { hasChromium, screenshotDir } from '../helpers/browser'
import { EVERYTHING_SERVER } from '../helpers/mcp'
import { openSettingsSection } from '../helpers/settings'
import { startUiSession, type UiSession } from '../helpers/ui-session'

async function openSection(page: Page) {
  await page.getByTestId('settings-button').click()
  const panel = page.getByTestId('settings-panel')
  await panel.waitFor({ state: 'visible' })
  await openSettingsSection(page, 'mcp')
  const section = panel.getByTestId('mcp-section')
  await section.scrollIntoViewIfNeeded()
  return section
}

describe.skipIf(!hasChromium())('Settings: MCP servers', () => {
  let session: UiSession

  beforeAll(async () => {
    session = await startUiSession([])
    writeFileSync(
      mcpConfigPath(session.temp.dataDir),
      JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } } }, null, 2)
    )
    await session.temp.app.mcp.reload()
    await session.temp.app.mcp.ready()
  })

  afterAll(async () => {
    await session?.close()
  })

  it('shows the server ready with its tools and log, explains bad JSON, refuses an unconfirmed new server, and turns one off', async () => {
    const { page, host, temp } = session
    await page.goto(host.url)
    const section = await openSection(page)
    expect(await section.locator('h3').textContent()).toBe('MCP servers')
    const row = section.locator('[data-testid="mcp-server"][data-server="everything"]')
    await row.locator('[data-testid="mcp-server-state"]', { hasText: 'ready' }).waitFor()
    expect(await row.getAttribute('data-state')).toBe('ready')
    await row.getByTestId('mcp-server-tools').locator('summary').click()
    const tools = await row.getByTestId('mcp-tool').evaluateAll((els) => els.map((el) => el.getAttribute('data-tool')))
    expect(tools).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__everything__get-tiny-image']))
    expect(await row.locator('[data-testid="mcp-tool"][data-tool="mcp__everything__echo"]').innerText()).toContain('[asks]')
    await row.getByTestId('mcp-server-log').locator('summary').click()
    expect(await row.getByTestId('mcp-server-log').innerText()).toContain('connected to mcp-servers/everything')
    await page.screenshot({ path: `${screenshotDir}/mcp-settings.png` })

    // A pasted entry that is not JSON is explained, and nothing is sent.
    await section.getByTestId('mcp-add').click()
    await section.getByTestId('mcp-name').fill('other')
    await section.getByTestId('mcp-json').fill('{ "command": ')
    await section.getByTestId('mcp-save').click()
    expect(await section.getByTestId('mcp-editor-error').innerText()).toMatch(/^This is not JSON: /)

    // A new command from a page needs a yes at the computer; nobody can be asked here.
    await section.getByTestId('mcp-json').fill(JSON.stringify({ command: 'sh', args: ['-c', 'touch /tmp/never'] }))
    await section.getByTestId('mcp-save').click()
    const refused = section.getByTestId('mcp-error')
    await refused.waitFor()
    expect(await refused.innerText()).toMatch(/needs a confirmation at this computer/)
    expect(temp.app.mcp.overview().servers.map((s) => s.name)).toEqual(['everything'])

    // Turning it off is not asked: the state says so and its tools are gone from the agent.
    await row.getByTestId('mcp-server-enabled').click()
    await row.locator('[data-testid="mcp-server-state"]', { hasText: 'off' }).waitFor()
    expect(temp.app.registry.names().some((name) => name.startsWith('mcp__everything__'))).toBe(false)
  })

  it('reads in Chinese', async () => {
    const { page, host, temp } = session
    temp.app.updateSettings({ language: 'zh-CN' })
    await page.goto(host.url)
    const section = await openSection(page)
    expect(await section.locator('h3').textContent()).toBe('MCP 服务器')
    const row = section.locator('[data-testid="mcp-server"][data-server="everything"]')
    expect(await row.getByTestId('mcp-server-state').innerText()).toBe('已关闭')
    expect(await section.getByTestId('mcp-add').innerText()).toBe('添加服务器')
  })
})
