/**
 * Memory in a real Chromium against the web host, in English and Chinese (docs/tools.md, "Memory"
 * and "Notifications"): a save the model made is undone from its card in the timeline; the Memory
 * panel lists, searches (Chinese two-character words too), filters by scope, edits and deletes
 * memories and sets the budget; a notice reaches the page through the Notifications API, which is
 * asked for permission on first use.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { hasChromium, screenshotDir } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const TEXTS = {
  en: { title: 'Memory', search: 'Search memories', global: 'Global', undo: 'Undo', undone: 'Undone: the memory was deleted.', saved: 'Remembered: "用户喜欢喝拿铁咖啡"' },
  'zh-CN': { title: '记忆', search: '搜索记忆', global: '全局', undo: '撤销', undone: '已撤销：这条记忆已删除。', saved: '已记住：“用户喜欢喝拿铁咖啡”' }
} as const

/** Records what the page asks of the Notifications API (Chromium headless shows nothing). */
async function recordNotifications(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const state = { permission: 'default' as NotificationPermission, asked: 0, shown: [] as Array<{ title: string; body?: string }> }
    class RecordedNotification {
      static get permission() {
        return state.permission
      }
      static async requestPermission() {
        state.asked++
        state.permission = 'granted'
        return state.permission
      }
      constructor(title: string, options?: NotificationOptions) {
        state.shown.push({ title, body: options?.body })
      }
    }
    Object.assign(globalThis, { Notification: RecordedNotification, __notices: state })
  })
}

describe.skipIf(!hasChromium())('memory panel and notices', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`undo from the timeline, the panel's list, search, filter, edit, delete and budget, a notice (${language})`, async () => {
      const said = TEXTS[language]
      session = await startUiSession([{ toolCalls: [{ name: 'memory_save', args: { text: '用户喜欢喝拿铁咖啡' } }] }, { text: 'OK.' }], { language })
      const { page, host, temp } = session
      const memories = temp.app.memories
      const tea = memories.save({ text: 'Prefers green tea in the afternoon', scope: 'global' })
      const pnpm = memories.save({ text: '这个仓库用 pnpm，不用 npm', scope: 'workspace', workspace: temp.workspace })
      await recordNotifications(page)
      await page.goto(host.url)

      // The model saves a memory; its card offers Undo, which deletes it again.
      await page.getByTestId('new-conversation').click()
      await page.getByTestId('composer-input').fill('remember my coffee')
      await page.getByTestId('send-button').click()
      await expect.poll(() => memories.list({ query: '拿铁' }).memories.length).toBe(1)
      // Folded or open, a finished save's card offers Undo under its one-line result.
      const card = page.locator('[data-testid="tool-call"][data-tool="memory_save"]')
      await card.waitFor({ state: 'visible' })
      expect(await card.getByTestId('tool-header-result').innerText()).toBe(said.saved)
      const undo = card.getByTestId('memory-undo')
      expect(await undo.innerText()).toBe(said.undo)
      await undo.click()
      await card.getByTestId('memory-undone').waitFor()
      expect(await card.getByTestId('memory-undone').innerText()).toBe(said.undone)
      expect(memories.list({ query: '拿铁' }).memories).toEqual([])

      // The panel: both memories, newest first, in the UI's language.
      await page.getByTestId('memory-button').click()
      const panel = page.getByTestId('memory-panel')
      await panel.waitFor({ state: 'visible' })
      expect(await panel.locator('h2').innerText()).toBe(said.title)
      expect(await panel.getByTestId('memory-search').getAttribute('placeholder')).toBe(said.search)
      const rows = panel.getByTestId('memory-row')
      await expect.poll(() => rows.count()).toBe(2)
      expect(await rows.nth(0).getAttribute('data-memory-id')).toBe(pnpm.id)
      expect(await rows.nth(1).getByTestId('memory-scope').innerText()).toBe(said.global)

      // Search: a Chinese two-character word, then an English one.
      await panel.getByTestId('memory-search').fill('仓库')
      await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining('pnpm')])
      await panel.getByTestId('memory-search').fill('tea')
      await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining('green tea')])
      await panel.getByTestId('memory-search').fill('')
      await expect.poll(() => rows.count()).toBe(2)

      // Scope filter.
      await panel.getByTestId('memory-filter').selectOption('workspace')
      await expect.poll(() => rows.count()).toBe(1)
      expect(await rows.first().getAttribute('data-scope')).toBe('workspace')
      await panel.getByTestId('memory-filter').selectOption('all')
      await expect.poll(() => rows.count()).toBe(2)

      // Edit: text and scope.
      const teaRow = panel.locator(`[data-testid="memory-row"][data-memory-id="${tea.id}"]`)
      await teaRow.getByTestId('memory-edit').click()
      await teaRow.getByTestId('memory-edit-text').fill('Prefers oolong tea in the afternoon')
      await teaRow.getByTestId('memory-edit-scope').selectOption('workspace')
      await teaRow.getByTestId('memory-edit-save').click()
      await expect.poll(() => memories.get(tea.id)).toMatchObject({ text: 'Prefers oolong tea in the afternoon', scope: 'workspace', workspace: temp.workspace })
      await expect.poll(() => teaRow.getByTestId('memory-text').innerText()).toBe('Prefers oolong tea in the afternoon')
      await page.screenshot({ path: `${screenshotDir}/memory-panel-${language}.png` })

      // Delete, confirmed.
      const pnpmRow = panel.locator(`[data-testid="memory-row"][data-memory-id="${pnpm.id}"]`)
      await pnpmRow.getByTestId('memory-delete').click()
      await page.getByTestId('memory-delete-confirm-ok').click()
      await expect.poll(() => rows.count()).toBe(1)
      expect(memories.get(pnpm.id)).toBeNull()

      // The budget each run is offered.
      await panel.getByTestId('memory-budget').fill('800')
      await panel.getByTestId('memory-budget-apply').click()
      await expect.poll(() => temp.app.settings().memoryContextChars).toBe(800)
      await panel.getByTestId('memory-close').click()

      // A notice: permission asked on first use, then shown through the Notifications API.
      temp.app.notifications.notify({ reason: 'agent', title: '备份完成', body: 'All 12 files.' })
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as { __notices: { shown: unknown[] } }).__notices.shown)).toEqual([{ title: '备份完成', body: 'All 12 files.' }])
      temp.app.notifications.notify({ reason: 'agent', title: 'Second', body: '' })
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as { __notices: { shown: unknown[] } }).__notices.shown.length)).toBe(2)
      expect(await page.evaluate(() => (globalThis as unknown as { __notices: { asked: number } }).__notices.asked)).toBe(1)
    })
  }
})
