/**
 * Folded tool runs and the virtualised message list in a real Chromium against the web host: a run
 * of 12 calls (one asked, one failing) becomes one row with its counts in English and Chinese, opens
 * and closes with the mouse and the keyboard, keeps the failed call in view while folded, and a
 * stored 300-call conversation stays a short page that still jumps to its latest message.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { seedToolConversation } from '../helpers/seed-conversation'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const list = (path: string) => ({ name: 'file_list', args: { path } })

const scrollBox = (page: Page) =>
  page.getByTestId('message-list').evaluate((el) => {
    const e = el as unknown as { scrollHeight: number; scrollTop: number; clientHeight: number }
    return { height: e.scrollHeight, top: e.scrollTop, client: e.clientHeight }
  })

describe.skipIf(!hasChromium())('folded tool runs in the web UI', () => {
  let session: UiSession

  beforeAll(async () => {
    session = await startUiSession(
      [
        // 12 calls in two steps, nothing said between them: one run of calls. The missing file fails;
        // the write asks (supervised, the default). Each listing has its own folder: a step runs the
        // same call with the same arguments only once.
        {
          text: 'Let me look around the workspace.',
          toolCalls: [list('d1'), list('d2'), list('d3'), { name: 'file_read', args: { path: 'missing.txt' } }, list('d4'), list('d5')]
        },
        {
          toolCalls: [list('d6'), list('d7'), list('d8'), list('d9'), list('d10'), { name: 'file_write', args: { path: 'notes.txt', content: 'hi\n' } }]
        },
        { text: 'Looked around and wrote **notes.txt**.' }
      ],
      {},
      {}
    )
    for (let i = 1; i <= 10; i++) mkdirSync(join(session.temp.workspace, `d${i}`))
  })

  afterAll(async () => {
    await session?.close()
  })

  it('folds 12 calls into one row with the counts, opens and closes it by mouse and keyboard', async () => {
    const { page, host, temp } = session
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto(host.url)
    await page.getByTestId('new-conversation').click()
    await page.getByTestId('composer-input').fill('Look around, then write notes.txt')
    await page.getByTestId('send-button').click()

    // The question comes at once, and its call stays in view while the run is folded.
    const modal = page.getByTestId('approval-modal')
    await modal.waitFor({ state: 'visible' })
    await page.locator('[data-testid="tool-call"][data-tool="file_write"][data-status="awaiting_approval"]').waitFor()
    await expect.poll(() => modal.getByTestId('approval-allow').isEnabled()).toBe(true)
    await modal.getByTestId('approval-allow').click()
    await modal.waitFor({ state: 'hidden' })
    await expect.poll(() => page.getByTestId('message-assistant').last().innerText()).toContain('wrote notes.txt')

    // One folded row for the 12 calls.
    const group = page.getByTestId('tool-group')
    expect(await group.count()).toBe(1)
    expect(await group.getAttribute('aria-expanded')).toBe('false')
    expect(await group.getAttribute('data-count')).toBe('12')
    expect(await group.getByTestId('tool-group-label').innerText()).toBe('Used 12 tools · 1 asked · 1 failed')
    // Folded: the failed call is still shown in full; nothing else is.
    const failed = page.locator('[data-testid="tool-call"][data-tool="file_read"][data-status="error"]')
    expect(await failed.isVisible()).toBe(true)
    expect(await page.getByTestId('tool-call').count()).toBe(1)
    expect(await page.getByTestId('tool-row').count()).toBe(0)
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'tool-runs-folded-en-light.png') })

    // Chinese follows the language setting.
    temp.app.updateSettings({ language: 'zh-CN' })
    await expect.poll(() => group.getByTestId('tool-group-label').innerText()).toBe('使用了 12 个工具 · 1 个已询问 · 1 个失败')
    temp.app.updateSettings({ language: 'en' })
    await expect.poll(() => group.getByTestId('tool-group-label').innerText()).toBe('Used 12 tools · 1 asked · 1 failed')

    // Mouse: open → 11 compact rows and the failed card, in order.
    await group.click()
    expect(await group.getAttribute('aria-expanded')).toBe('true')
    const rows = page.getByTestId('tool-row')
    await expect.poll(() => rows.count()).toBe(11)
    expect(await page.locator('[data-testid="tool-row"][data-tool="file_write"]').getAttribute('data-status')).toBe('completed')
    const order = await page.locator('[data-testid="tool-row"], [data-testid="tool-call"]').evaluateAll((els) =>
      els.map((el) => el.getAttribute('data-tool'))
    )
    expect(order).toEqual([...Array(3).fill('file_list'), 'file_read', ...Array(7).fill('file_list'), 'file_write'])
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'tool-runs-expanded-en-light.png') })

    // A row opens into the full card (the card's testids), and its header folds it back.
    const write = page.locator('[data-testid="tool-row"][data-tool="file_write"]')
    const writeId = await write.getAttribute('data-call-id')
    await write.click()
    const card = page.locator(`[data-testid="tool-call"][data-call-id="${writeId}"]`)
    await card.waitFor()
    expect(await card.getAttribute('data-status')).toBe('completed')
    expect(await card.getByTestId('tool-verdict').getAttribute('data-kind')).toBe('approved')
    expect(await rows.count()).toBe(10)
    await card.locator('.tool-call-header').click()
    await expect.poll(() => rows.count()).toBe(11)
    expect(await card.count()).toBe(0)

    // Mouse: close.
    await group.click()
    await expect.poll(() => rows.count()).toBe(0)
    expect(await failed.isVisible()).toBe(true)

    // Keyboard: Enter opens and closes, Space too.
    await group.focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => group.getAttribute('aria-expanded')).toBe('true')
    await expect.poll(() => rows.count()).toBe(11)
    await page.keyboard.press('Enter')
    await expect.poll(() => group.getAttribute('aria-expanded')).toBe('false')
    await expect.poll(() => rows.count()).toBe(0)
    await page.keyboard.press('Space')
    await expect.poll(() => rows.count()).toBe(11)
    await page.keyboard.press('Space')
    await expect.poll(() => rows.count()).toBe(0)
    expect(await failed.isVisible()).toBe(true)
  })

  it('a stored 300-call conversation stays a short page, only its visible rows in the DOM, and jumps to the latest', async () => {
    const { page, host, temp } = session
    const seeded = seedToolConversation(temp.app, { runs: 10, callsPerRun: 30, title: 'Three hundred calls' })
    await page.goto(host.url)
    await page.locator(`[data-testid="conversation-item"][data-conversation-id="${seeded.id}"]`).click()
    await expect.poll(() => page.getByTestId('message-assistant').last().innerText()).toContain(seeded.lastAnswer)

    // Ten folded rows of 30, the page a few screens tall (every card open: ~49,000 px).
    const box = await scrollBox(page)
    expect(box.height).toBeLessThan(5_000)
    expect(await page.getByTestId('tool-call').count()).toBe(0)
    // Virtualised: only the rows around the viewport are in the DOM.
    expect(await page.locator('.virtual-row').count()).toBeLessThan(40)
    // It opened at its bottom.
    await expect.poll(async () => {
      const now = await scrollBox(page)
      return now.height - now.top - now.client
    }).toBeLessThan(2)

    // Scrolled up: "Jump to latest" appears and brings the last answer back.
    await page.getByTestId('message-list').evaluate((el) => {
      ;(el as unknown as { scrollTop: number }).scrollTop = 0
    })
    const jump = page.getByTestId('jump-latest')
    await jump.waitFor({ state: 'visible' })
    expect(await page.getByTestId('message-user').first().innerText()).toContain('Step 1')
    await jump.click()
    await jump.waitFor({ state: 'hidden' })
    await expect.poll(async () => {
      const now = await scrollBox(page)
      return now.height - now.top - now.client
    }).toBeLessThan(2)
    expect(await page.getByTestId('message-assistant').last().innerText()).toContain(seeded.lastAnswer)

    // An opened group of 30 is still only the rows on screen.
    const last = page.getByTestId('tool-group').last()
    await last.click()
    await expect.poll(() => page.getByTestId('tool-row').count()).toBeGreaterThan(0)
    expect(await page.locator('.virtual-row').count()).toBeLessThan(60)
  })
})
