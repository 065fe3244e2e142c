/**
 * A tool that exists only in the test tree (test/fixtures/tools/stamp) in a real Chromium: its
 * approval is shown in its own Chinese words with its preview image, and after it runs, the PNG it
 * returned is in the timeline — stored, fetched by id and drawn — also after a reload.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { createStampTools } from '../fixtures/tools/stamp'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { openToolCard } from '../helpers/tool-card'
import { startUiSession, type UiSession } from '../helpers/ui-session'

/** The natural size of the image an <img> shows: 0×0 until it has really been decoded. */
const naturalSize = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((img) => {
    const image = img as unknown as { naturalWidth: number; naturalHeight: number; complete: boolean }
    return image.complete ? `${image.naturalWidth}x${image.naturalHeight}` : 'loading'
  })

describe.skipIf(!hasChromium())('a tool pack from the test tree in the UI', () => {
  let session: UiSession | undefined

  afterAll(async () => {
    await session?.close()
  })

  it('asks in the tool’s own Chinese words with its image, then shows the PNG it returned', async () => {
    session = await startUiSession(
      [{ toolCalls: [{ name: 'stamp_note', args: { file: 'notes/stamped.txt', note: 'ship it' } }] }, { text: 'Stamped the note.' }],
      { language: 'zh-CN', imageInput: 'on' },
      { toolSources: [createStampTools()] }
    )
    const { page, host, temp, server } = session
    await page.goto(host.url)
    await page.getByTestId('new-conversation').click()
    await page.getByTestId('composer-input').fill('stamp a note')
    await page.getByTestId('send-button').click()

    const modal = page.getByTestId('approval-modal')
    await modal.waitFor({ state: 'visible' })
    await expect.poll(() => modal.locator('h2').innerText()).toBe('在 notes/stamped.txt 中盖章便签')
    const fileField = modal.locator('[data-testid="approval-field"][data-label="Note file"]')
    await expect.poll(() => fileField.innerText()).toContain('便签文件')
    expect(await fileField.innerText()).toContain('notes/stamped.txt')
    await expect.poll(() => naturalSize(page, '[data-testid="approval-image"]')).toBe('48x32')
    expect(await modal.getByTestId('approval-image').getAttribute('alt')).toBe('印章')
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'tool-pack-approval.png') })

    await page.getByTestId('approval-allow').click()
    await modal.waitFor({ state: 'hidden' })
    const call = page.locator('[data-testid="tool-call"][data-tool="stamp_note"]')
    await expect.poll(() => call.getAttribute('data-status')).toBe('completed')
    expect(await call.locator('.tool-summary').innerText()).toBe('notes/stamped.txt ← ship it')
    await openToolCard(call)
    await expect.poll(() => naturalSize(page, '[data-testid="tool-attachment-image"]')).toBe('48x32')
    expect(readFileSync(join(temp.workspace, 'notes/stamped.txt'), 'utf8')).toBe('ship it\n')
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'tool-pack-image.png') })

    // From the store after a reload: the record names the attachment, the page fetches it by id.
    await page.reload()
    await page.getByTestId('conversation-item').first().click()
    await openToolCard(call)
    await expect.poll(() => naturalSize(page, '[data-testid="tool-attachment-image"]')).toBe('48x32')
    const request = server.requests[1]!.body.messages
    expect(JSON.stringify(request)).toContain('data:image/png;base64,')
  })
})
