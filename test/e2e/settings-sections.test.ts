/**
 * Issue 22, item 9 (a), in a real Chromium through the web host, in English and Chinese: Settings
 * is a section menu beside one page per section, not one long form; the menu is reachable and
 * usable by keyboard (a tab list: arrows, Home, End), remembers the last section, marks a section
 * holding a field to fix, keeps unsaved edits across sections, and becomes a row of tabs in a
 * narrow window. The autonomy chip still opens Safety.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { hasChromium } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const LABELS = {
  en: ['General', 'Model providers', 'Safety', 'Desktop control', 'Chat apps', 'MCP servers', 'Web', 'Model prices', 'Checkpoints', 'Project checks'],
  'zh-CN': ['通用', '模型服务商', '安全', '桌面控制', '聊天应用', 'MCP 服务器', '网络', '模型价格', '检查点', '项目检查']
} as const
const IDS = ['general', 'model', 'safety', 'desktop', 'chatApps', 'mcp', 'web', 'prices', 'checkpoints', 'checks']

describe.skipIf(!hasChromium())('Settings: the section menu', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: one page at a time, by mouse and keyboard, remembered, errors marked`, async () => {
      session = await startUiSession([], { language })
      const { page, host, temp } = session
      await page.setViewportSize({ width: 1280, height: 800 })
      await page.goto(host.url)
      await page.getByTestId('settings-button').click()
      const panel = page.getByTestId('settings-panel')
      const nav = panel.getByTestId('settings-nav')
      await nav.waitFor()
      const tabs = nav.getByRole('tab')
      expect(await tabs.allInnerTexts()).toEqual([...LABELS[language]])
      const shown = async () => {
        const visible: string[] = []
        for (const id of IDS) if (await panel.getByTestId(`settings-page-${id}`).isVisible()) visible.push(id)
        return visible
      }
      // The first time: the first section, and only it.
      expect(await shown()).toEqual(['general'])
      expect(await panel.getByTestId('settings-section-tab-general').getAttribute('aria-selected')).toBe('true')

      // Mouse.
      await panel.getByTestId('settings-section-tab-safety').click()
      expect(await shown()).toEqual(['safety'])

      // Keyboard: the open tab is the one Tab reaches; arrows, Home and End move and open.
      const safetyTab = panel.getByTestId('settings-section-tab-safety')
      await safetyTab.focus()
      await page.keyboard.press('ArrowDown')
      expect(await shown()).toEqual(['desktop'])
      expect(await panel.getByTestId('settings-section-tab-desktop').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)
      await page.keyboard.press('End')
      expect(await shown()).toEqual(['checks'])
      await page.keyboard.press('Home')
      expect(await shown()).toEqual(['general'])
      await page.keyboard.press('ArrowUp')
      expect(await shown()).toEqual(['checks'])
      expect(await tabs.evaluateAll((els) => els.map((el) => el.getAttribute('tabindex')))).toEqual(IDS.map((id) => (id === 'checks' ? '0' : '-1')))

      // An error on a page is marked on its tab, also from another page; an edit survives switching.
      await panel.getByTestId('settings-section-tab-safety').click()
      await panel.getByTestId('settings-max-iterations').fill('0')
      await expect.poll(() => panel.getByTestId('settings-section-tab-safety').getAttribute('data-has-error')).toBe('true')
      await panel.getByTestId('settings-section-tab-general').click()
      expect(await panel.getByTestId('settings-section-tab-safety').getAttribute('data-has-error')).toBe('true')
      await panel.getByTestId('settings-section-tab-safety').click()
      await panel.getByTestId('settings-max-iterations').fill('7')
      await expect.poll(() => panel.getByTestId('settings-section-tab-safety').getAttribute('data-has-error')).toBe(null)
      await panel.getByTestId('settings-section-tab-desktop').click()
      await panel.getByTestId('settings-save').click()
      await panel.getByTestId('settings-saved').waitFor()
      expect(temp.app.settings().maxIterations).toBe(7)

      // Remembered: Settings opens where it was left, also after a reload.
      await page.keyboard.press('Escape')
      await panel.waitFor({ state: 'hidden' })
      await page.getByTestId('settings-button').click()
      await expect.poll(() => shown()).toEqual(['desktop'])
      await page.reload()
      await page.getByTestId('settings-button').click()
      await expect.poll(() => shown()).toEqual(['desktop'])

      // Narrow: the menu is rows of tabs above the page, every tab inside the window.
      await page.setViewportSize({ width: 600, height: 700 })
      const navBox = (await nav.boundingBox())!
      const pageBox = (await panel.getByTestId('settings-page-desktop').boundingBox())!
      expect(navBox.y + navBox.height).toBeLessThanOrEqual(pageBox.y + 1)
      expect(navBox.height).toBeLessThan(120)
      for (const box of await tabs.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().right))) expect(box).toBeLessThanOrEqual(600)

      // The autonomy chip opens Safety, whatever was open last.
      await page.setViewportSize({ width: 1280, height: 800 })
      await page.keyboard.press('Escape')
      await page.getByTestId('new-conversation').click()
      await page.getByTestId('autonomy-chip').click()
      await expect.poll(() => shown()).toEqual(['safety'])
    })
  }
})
