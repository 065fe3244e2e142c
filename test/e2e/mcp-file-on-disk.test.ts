/**
 * Issue 38, bug 2, in a real Chromium through the web host, in English and Chinese: a change to an
 * MCP server made in Settings is written against mcp.json as it is on disk — a server added by hand
 * in an editor meanwhile survives (before the fix the page's old copy replaced the file and it was
 * gone); the panel shows a hand edit without a reload (the file is watched); a file that is not
 * valid JSON is never overwritten: the page says why, the file is left as it was and a copy is kept.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { mcpBackupPath, mcpConfigPath } from '../../src/main/mcp'
import { hasChromium } from '../helpers/browser'
import { openSettingsSection } from '../helpers/settings'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const NOT_CHANGED = { en: /was not changed: it is not a list of MCP servers DeskClaw can read/, 'zh-CN': /没有修改 .*它不是 DeskClaw 能读取的 MCP 服务器列表/ } as const

/** A server that starts nothing of note: node exiting at once. */
const server = (disabled: boolean) => ({ command: process.execPath, args: ['-e', ''], ...(disabled ? { disabled: true } : {}) })

async function openSection(page: Page) {
  await page.getByTestId('settings-button').click()
  await page.getByTestId('settings-panel').waitFor({ state: 'visible' })
  await openSettingsSection(page, 'mcp')
  return page.getByTestId('mcp-section')
}

const onDisk = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, { disabled?: boolean }> }

describe.skipIf(!hasChromium())('Settings: MCP changes are made to the file on disk', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: a hand-added server survives a save, the panel follows the file, an invalid file is kept`, async () => {
      session = await startUiSession([], { language })
      const { page, host, temp } = session
      const file = mcpConfigPath(temp.dataDir)
      writeFileSync(file, JSON.stringify({ mcpServers: { alpha: server(true) } }, null, 2))
      await temp.app.mcp.reload()
      await page.goto(host.url)
      const section = await openSection(page)
      const alpha = section.locator('[data-testid="mcp-server"][data-server="alpha"]')
      await alpha.waitFor()

      // Added by hand in an editor while the page is open: the panel shows it without a reload.
      writeFileSync(file, JSON.stringify({ mcpServers: { alpha: server(true), beta: server(true) }, note: 'mine' }, null, 2))
      await section.locator('[data-testid="mcp-server"][data-server="beta"]').waitFor({ timeout: 10_000 })

      // Turned on from the page: the hand-added server and the file's other key survive.
      await alpha.getByTestId('mcp-server-enabled').click()
      await expect.poll(() => onDisk(file).mcpServers.alpha?.disabled === true, { timeout: 10_000 }).toBe(false)
      expect(Object.keys(onDisk(file).mcpServers)).toEqual(['alpha', 'beta'])
      expect((onDisk(file) as unknown as { note: string }).note).toBe('mine')

      // Cut short in an editor: the next change from the page is refused, said why, the file kept.
      const truncated = '{ "mcpServers": { "alpha": '
      writeFileSync(file, truncated)
      await alpha.getByTestId('mcp-server-enabled').click()
      const refused = section.getByTestId('mcp-error')
      await refused.waitFor()
      expect(await refused.innerText()).toMatch(NOT_CHANGED[language])
      expect(readFileSync(file, 'utf8')).toBe(truncated)
      expect(existsSync(mcpBackupPath(file))).toBe(true)
      expect(readFileSync(mcpBackupPath(file), 'utf8')).toBe(truncated)
    })
  }
})
