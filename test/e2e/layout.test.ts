/**
 * The layout from 480 px up, in English and Chinese: nothing spills sideways at 480×800 (start, a
 * chat with long-titled tool calls, an approval, the settings), the sidebar collapses and expands
 * by its buttons and by Ctrl+B and stays so after a reload, below 720 px it is a drawer over the
 * chat that Escape, a click beside it and picking a conversation close, and Ctrl+K shows it to
 * search. Screenshots: layout-480-<lang>.png and sidebar-collapsed-<lang>.png.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import type { Settings } from '../../src/shared'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { openSettingsSection } from '../helpers/settings'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const LONG_PATH = 'reports/quarterly/2026/emea-and-apac-regional-breakdown-with-appendices-final-v3.md'
const LANGUAGES: Array<Settings['language']> = ['en', 'zh-CN']

/** How far the page reaches past the window's right edge (0: nothing overflows), and what sticks out. */
async function horizontalOverflow(page: Page): Promise<{ excess: number; culprits: string[] }> {
  return page.evaluate(() => {
    const win = globalThis as unknown as {
      innerWidth: number
      document: { scrollingElement: { scrollWidth: number }; querySelectorAll(s: string): Iterable<{ tagName: string; className: unknown; getBoundingClientRect(): { right: number; width: number } }> }
    }
    const culprits = [...win.document.querySelectorAll('body *')]
      .filter((el) => {
        const box = el.getBoundingClientRect()
        return box.width > 0 && box.right > win.innerWidth + 0.5
      })
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)}`)
    return { excess: win.document.scrollingElement.scrollWidth - win.innerWidth, culprits }
  })
}

async function expectNoOverflow(page: Page, view: string): Promise<void> {
  const { excess, culprits } = await horizontalOverflow(page)
  expect({ view, excess, culprits }).toEqual({ view, excess: 0, culprits: [] })
}

/** A visible element lies inside the window. */
async function expectInsideWindow(page: Page, testId: string): Promise<void> {
  const box = await page.getByTestId(testId).boundingBox()
  const size = page.viewportSize()!
  expect(box, testId).not.toBeNull()
  expect(box!.x, testId).toBeGreaterThanOrEqual(0)
  expect(box!.x + box!.width, testId).toBeLessThanOrEqual(size.width + 0.5)
  expect(box!.y + box!.height, testId).toBeLessThanOrEqual(size.height + 0.5)
}

const sidebarState = (page: Page) => page.getByTestId('app').getAttribute('data-sidebar')

describe.skipIf(!hasChromium())('layout from 480 px up', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of LANGUAGES) {
    it(`fits 480×800 without horizontal overflow; the drawer opens and closes (${language})`, async () => {
      session = await startUiSession(
        [
          // A long-titled read (it fails: a full card), four listings that fold into one row, a write that asks.
          { text: 'Reading the report.', toolCalls: [{ name: 'file_read', args: { path: LONG_PATH } }] },
          {
            toolCalls: [1, 2, 3, 4].map((n) => ({ name: 'file_list', args: { path: `${LONG_PATH.replace('.md', '')}/part-${n}` } }))
          },
          { text: 'Now I will write it.', toolCalls: [{ name: 'file_write', args: { path: LONG_PATH, content: '# Report\n' } }] },
          { text: 'Done.' }
        ],
        { language }
      )
      const { page, host, temp } = session
      for (const n of [1, 2, 3, 4]) mkdirSync(join(temp.workspace, LONG_PATH.replace('.md', ''), `part-${n}`), { recursive: true })
      await page.setViewportSize({ width: 480, height: 800 })
      await page.goto(host.url)
      await page.getByTestId('composer-input').waitFor()
      await settled(page)

      // The measure itself can see an overflow (else "no overflow" would prove nothing).
      await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { createElement(t: string): { id: string; style: { cssText: string } }; body: { append(e: unknown): void } } }).document
        const wide = doc.createElement('div')
        wide.id = 'too-wide'
        wide.style.cssText = 'width: 700px; height: 1px'
        doc.body.append(wide)
      })
      expect((await horizontalOverflow(page)).excess).toBeGreaterThan(0)
      await page.evaluate(() => (globalThis as unknown as { document: { getElementById(id: string): { remove(): void } } }).document.getElementById('too-wide').remove())

      // Start: the sidebar is a closed drawer, the header's toggle and the composer are usable.
      expect(await sidebarState(page)).toBe('hidden')
      await expect.poll(() => page.getByTestId('sidebar').isVisible()).toBe(false)
      await expectNoOverflow(page, 'start')
      await expectInsideWindow(page, 'sidebar-expand')
      await expectInsideWindow(page, 'send-button')
      const expand = page.getByTestId('sidebar-expand')
      expect(await expand.getAttribute('aria-label')).toBe(language === 'en' ? 'Show the sidebar' : '显示侧边栏')
      expect(await expand.getAttribute('title')).toContain('+B')

      // The drawer: over the chat; Escape closes it and focus goes back to the toggle.
      await expand.click()
      await expect.poll(() => sidebarState(page)).toBe('drawer')
      await page.getByTestId('sidebar').waitFor({ state: 'visible' })
      await settled(page) // it slides in
      await expectInsideWindow(page, 'sidebar')
      await expectNoOverflow(page, 'drawer')
      await page.keyboard.press('Escape')
      await expect.poll(() => sidebarState(page)).toBe('hidden')
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }).document.activeElement?.getAttribute('data-testid'))).toBe('sidebar-expand')
      // A click beside it closes it.
      await page.keyboard.press('Control+b')
      await expect.poll(() => sidebarState(page)).toBe('drawer')
      await page.getByTestId('sidebar-backdrop').click({ position: { x: 460, y: 400 } })
      await expect.poll(() => sidebarState(page)).toBe('hidden')
      // Picking (here: starting) a conversation closes it.
      await expand.click()
      await page.getByTestId('new-conversation').click()
      await expect.poll(() => sidebarState(page)).toBe('hidden')

      // A chat with long-titled tool calls, and the approval of the write.
      await page.getByTestId('composer-input').fill(language === 'en' ? 'Read the quarterly report, then write it' : '读一下季度报告，然后写出来')
      await page.getByTestId('send-button').click()
      const modal = page.getByTestId('approval-modal')
      await modal.waitFor({ state: 'visible' })
      await settled(page)
      await expectNoOverflow(page, 'approval')
      await expectInsideWindow(page, 'approval-modal')
      await expectInsideWindow(page, 'approval-allow')
      await expectInsideWindow(page, 'approval-deny')
      await page.getByTestId('approval-allow').click()
      await modal.waitFor({ state: 'hidden' })
      await page.locator('[data-testid="tool-call"][data-tool="file_write"][data-status="completed"]').waitFor()
      await page.getByText('Done.').waitFor()
      await settled(page)
      await expectNoOverflow(page, 'chat')
      await page.screenshot({ path: join(screenshotDir, `layout-480-${language}.png`) })

      // The long title: ellipsized at a sensible length, never a few letters, the whole of it in `title`.
      const summary = page.locator('[data-testid="tool-call"][data-tool="file_read"] .tool-summary')
      expect(await summary.getAttribute('title')).toBe(LONG_PATH)
      expect((await summary.boundingBox())!.width).toBeGreaterThan(120)
      // The folded run's rows too.
      await page.getByTestId('tool-group').first().click()
      const row = page.getByTestId('tool-row').first().locator('.tool-summary')
      await row.waitFor()
      expect(await row.getAttribute('title')).toContain(LONG_PATH.replace('.md', ''))
      expect((await row.boundingBox())!.width).toBeGreaterThan(120)
      await settled(page)
      await expectNoOverflow(page, 'chat, run unfolded')

      // Settings from the drawer: the drawer gives way to the dialog, which fits.
      await expand.click()
      await page.getByTestId('settings-button').click()
      await openSettingsSection(page, 'model')
      await page.getByTestId('settings-provider').waitFor()
      await expect.poll(() => sidebarState(page)).toBe('hidden')
      await settled(page)
      await expectNoOverflow(page, 'settings')
      await expectInsideWindow(page, 'settings-panel')
      await expectInsideWindow(page, 'settings-save')
      await openSettingsSection(page, 'general')
      await page.getByTestId('settings-theme-dark').scrollIntoViewIfNeeded()
      await expectNoOverflow(page, 'settings, theme field')
    })
  }

  for (const language of LANGUAGES) {
    it(`collapses and expands the sidebar by button and Ctrl+B, and remembers it (${language})`, async () => {
      session = await startUiSession([{ text: 'Hello.' }], { language })
      const { page, host } = session
      await page.goto(host.url)
      await page.getByTestId('new-conversation').waitFor()
      expect(await sidebarState(page)).toBe('docked')
      const collapse = page.getByTestId('sidebar-collapse')
      expect(await collapse.getAttribute('aria-label')).toBe(language === 'en' ? 'Hide the sidebar' : '隐藏侧边栏')

      // By the button; it stays collapsed after a reload.
      await collapse.click()
      await expect.poll(() => sidebarState(page)).toBe('hidden')
      await page.getByTestId('sidebar').waitFor({ state: 'hidden' })
      await page.reload()
      await page.getByTestId('composer-input').waitFor()
      expect(await sidebarState(page)).toBe('hidden')
      await page.getByTestId('sidebar-expand').waitFor()
      await settled(page)
      await page.screenshot({ path: join(screenshotDir, `sidebar-collapsed-${language}.png`) })
      // The chat takes the whole width.
      expect((await page.locator('.main').boundingBox())!.width).toBeGreaterThan(1270)

      // By the header's button, then by Ctrl+B both ways; the last state survives a reload.
      await page.getByTestId('sidebar-expand').click()
      await expect.poll(() => sidebarState(page)).toBe('docked')
      await page.getByTestId('composer-input').click()
      await page.keyboard.press('Control+b')
      await expect.poll(() => sidebarState(page)).toBe('hidden')
      await page.keyboard.press('Control+b')
      await expect.poll(() => sidebarState(page)).toBe('docked')
      await page.reload()
      await page.getByTestId('new-conversation').waitFor()
      expect(await sidebarState(page)).toBe('docked')
      await page.getByTestId('new-conversation').click()

      // Narrowing the window below 720 px turns the docked sidebar into a closed drawer, whatever was remembered.
      await page.setViewportSize({ width: 700, height: 800 })
      await expect.poll(() => sidebarState(page)).toBe('hidden')
      await page.keyboard.press('Control+b')
      await expect.poll(() => sidebarState(page)).toBe('drawer')
      await page.getByTestId('conversation-item').first().waitFor()
      await page.locator('[data-testid="conversation-item"] .conversation-select').first().click()
      await expect.poll(() => sidebarState(page)).toBe('hidden')
      // And widening it docks the sidebar again.
      await page.setViewportSize({ width: 1280, height: 800 })
      await expect.poll(() => sidebarState(page)).toBe('docked')
      // Ctrl+K (search) shows a collapsed sidebar and puts the caret in its search box.
      await page.keyboard.press('Control+b')
      await expect.poll(() => sidebarState(page)).toBe('hidden')
      await page.keyboard.press('Control+k')
      await expect.poll(() => sidebarState(page)).toBe('docked')
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { className: string } | null } }).document.activeElement?.className)).toContain('sidebar-search-input')
    })
  }
})
