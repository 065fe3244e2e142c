/**
 * A desktop run from the scripted model server, through the browser UI (Playwright, Debian's
 * Chromium) against a real X display: the screenshot runs unasked and shows in the timeline, the
 * click and the typing are approved in the modal (the click's shows the marked screenshot), the
 * banner says who controls the desktop, and the text lands in a real GTK text field.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { openProbeWindow, type ProbeWindow } from '../helpers/probe-window'
import { openToolCard } from '../helpers/tool-card'
import { startUiSession, type UiSession } from '../helpers/ui-session'
import { hasXServerTools, requireXServer, startDisplay, type TestDisplay } from '../helpers/xvfb'

const naturalSize = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((img) => {
    const image = img as unknown as { naturalWidth: number; naturalHeight: number; complete: boolean }
    return image.complete ? `${image.naturalWidth}x${image.naturalHeight}` : 'loading'
  })

const ready = hasChromium() && (hasXServerTools() || requireXServer())

describe.skipIf(!ready)('a desktop run in the UI', () => {
  let display: TestDisplay | undefined
  let probe: ProbeWindow | undefined
  let session: UiSession | undefined

  afterAll(async () => {
    await session?.close()
    await probe?.close()
    await display?.stop()
  })

  it('screenshot, click and type: approved in the browser, shown in the timeline, typed into a real window', async () => {
    // Its own display: the desktop project's tests may be using CI's shared one at the same time.
    display = await startDisplay({ shared: false })
    probe = await openProbeWindow(display, { title: 'Form 表单', mode: 'entry', x: 200, y: 200, width: 500, height: 80 })
    const { client } = probe.ready
    const target = { x: client.x + 100, y: client.y + 40 }
    session = await startUiSession(
      [
        { toolCalls: [{ name: 'screenshot', args: {} }] },
        { toolCalls: [{ name: 'mouse_click', args: target }] },
        { toolCalls: [{ name: 'type_text', args: { text: '你好，DeskClaw 👋' } }] },
        { text: 'Typed it.' }
      ],
      { imageInput: 'on' },
      {},
      display.env
    )
    const { page, host, server } = session
    await page.goto(host.url)
    await page.getByTestId('new-conversation').click()
    await page.getByTestId('composer-input').fill('type a greeting into the form')
    await page.getByTestId('send-button').click()

    // The screenshot did not ask; the click does, with the last screenshot and the point marked.
    const modal = page.getByTestId('approval-modal')
    await modal.waitFor({ state: 'visible' })
    await expect.poll(() => modal.locator('.approval-head').getAttribute('data-tool')).toBe('mouse_click')
    await expect.poll(() => naturalSize(page, '[data-testid="approval-image"]')).toMatch(/^960x600$/)
    expect(await modal.innerText()).toContain(`(${target.x}, ${target.y})`)
    const shot = page.locator('[data-testid="tool-call"][data-tool="screenshot"]')
    expect(await shot.getAttribute('data-status')).toBe('completed')
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'desktop-click-approval.png') })
    await page.getByTestId('approval-allow').click()

    // The typing asks too; meanwhile the banner says DeskClaw holds the keyboard and mouse.
    await expect.poll(() => modal.locator('.approval-head').getAttribute('data-tool')).toBe('type_text')
    const banner = page.getByTestId('desktop-banner')
    await banner.waitFor({ state: 'visible' })
    expect(await banner.innerText()).toContain('Ctrl+Alt+Esc')
    await page.getByTestId('approval-allow').click()
    await modal.waitFor({ state: 'hidden' })

    await probe.waitFor((event) => event.event === 'text' && event.text === '你好，DeskClaw 👋')
    const typed = page.locator('[data-testid="tool-call"][data-tool="type_text"]')
    await expect.poll(() => typed.getAttribute('data-status')).toBe('completed')
    await banner.waitFor({ state: 'hidden' })

    // The screenshot is in the timeline at the screen's size (its card opened: a finished call is one line), and it went to the model as an image.
    await openToolCard(shot)
    await expect.poll(() => naturalSize(page, '[data-testid="tool-attachment-image"]')).toBe(`${display.width}x${display.height}`)
    await page.getByTestId('tool-attachment-image').first().click()
    await page.getByTestId('image-lightbox').waitFor({ state: 'visible' })
    await page.keyboard.press('Escape')
    await page.getByTestId('image-lightbox').waitFor({ state: 'hidden' })
    expect(JSON.stringify(server.requests[1]!.body.messages)).toContain('data:image/png;base64,')
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'desktop-run.png') })
  })
})
