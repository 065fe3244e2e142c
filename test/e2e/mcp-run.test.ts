/**
 * An MCP tool through the whole UI path in a real Chromium: the scripted model calls
 * server-everything's get-tiny-image (stdio, from mcp.json), the approval names the server, the
 * tool and the arguments, and after Allow the timeline shows the result line and draws the PNG the
 * server returned; the model's next request carries it as an image part (docs/tools.md, "MCP servers").
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { mcpConfigPath } from '../../src/main/mcp'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { EVERYTHING_SERVER, TINY_PNG_PREFIX } from '../helpers/mcp'
import { openToolCard } from '../helpers/tool-card'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const naturalSize = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((img) => {
    const image = img as unknown as { naturalWidth: number; naturalHeight: number; complete: boolean }
    return image.complete ? `${image.naturalWidth}x${image.naturalHeight}` : 'loading'
  })

describe.skipIf(!hasChromium())('an MCP tool in the UI', () => {
  let session: UiSession | undefined

  afterAll(async () => {
    await session?.close()
  })

  it('asks with the server, tool and arguments, then shows the image the server returned', async () => {
    session = await startUiSession([{ toolCalls: [{ name: 'mcp__everything__get-tiny-image', args: {} }] }, { text: 'That is the MCP logo.' }], { imageInput: 'on' })
    const { page, host, temp, server } = session
    writeFileSync(mcpConfigPath(temp.dataDir), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } } }))
    await temp.app.mcp.reload()
    await temp.app.mcp.ready()

    await page.goto(host.url)
    await page.getByTestId('new-conversation').click()
    await page.getByTestId('composer-input').fill('show me the tiny image')
    await page.getByTestId('send-button').click()

    const modal = page.getByTestId('approval-modal')
    await modal.waitFor({ state: 'visible' })
    await expect.poll(() => modal.locator('h2').innerText()).toBe('Run "get-tiny-image" of the MCP server "everything"')
    expect(await modal.locator('[data-testid="approval-field"][data-label="MCP server"]').innerText()).toContain('everything')
    expect(await modal.locator('[data-testid="approval-field"][data-label="Arguments"]').innerText()).toContain('{}')
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'mcp-approval.png') })
    await page.getByTestId('approval-allow').click()
    await modal.waitFor({ state: 'hidden' })

    const call = page.locator('[data-testid="tool-call"][data-tool="mcp__everything__get-tiny-image"]')
    await expect.poll(() => call.getAttribute('data-status')).toBe('completed')
    await openToolCard(call)
    await expect.poll(() => naturalSize(page, '[data-testid="tool-attachment-image"]')).toBe('20x20')
    expect(await call.innerText()).toContain('"everything" answered get-tiny-image.')
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'mcp-image.png') })
    expect(JSON.stringify(server.requests[1]!.body.messages)).toContain(`data:image/png;base64,${TINY_PNG_PREFIX}`)
  })
})
