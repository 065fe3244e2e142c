/**
 * Settings → Theme, in English and Chinese: light and dark hold whatever the system prefers,
 * `system` follows it (page.emulateMedia) live, the choice is saved (settings.get, and a reload
 * paints in it), the sidebar's quick toggle cycles system → light → dark, and the palette follows.
 */
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import type { Settings } from '../../src/shared'
import { hasChromium } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

/** The mean of the page background's RGB channels (0 black … 255 white), as Chromium computed it. */
async function backgroundBrightness(page: Page): Promise<number> {
  const background = await page.locator('body').evaluate(
    (body) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(body).backgroundColor
  )
  const channels = (background.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number)
  return channels.reduce((sum, channel) => sum + channel, 0) / 3
}

const isDark = async (page: Page) => (await backgroundBrightness(page)) < 90
const isLight = async (page: Page) => (await backgroundBrightness(page)) > 170

async function expectLook(page: Page, look: 'light' | 'dark'): Promise<void> {
  await expect.poll(() => (look === 'dark' ? isDark(page) : isLight(page)), { message: `background should be ${look}` }).toBe(true)
}

const LANGUAGES: Array<Settings['language']> = ['en', 'zh-CN']

describe.skipIf(!hasChromium())('theme: light, dark, system', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of LANGUAGES) {
    it(`switches, persists and follows the system (${language})`, async () => {
      session = await startUiSession([], { language })
      const { page, host, temp } = session
      expect(temp.app.settings().theme).toBe('system') // the default

      // System (default): follows the emulated preference, live.
      await page.emulateMedia({ colorScheme: 'light' })
      await page.goto(host.url)
      await page.getByTestId('new-conversation').waitFor()
      await expectLook(page, 'light')
      await page.emulateMedia({ colorScheme: 'dark' })
      await expectLook(page, 'dark')

      // Settings → Theme → Light: light although the system prefers dark; saved at once.
      await page.getByTestId('settings-button').click()
      const light = page.getByTestId('settings-theme-light')
      await light.scrollIntoViewIfNeeded()
      expect(await page.locator('.theme-field legend').innerText()).toBe(language === 'en' ? 'Theme' : '主题')
      await light.check()
      await expectLook(page, 'light')
      await expect.poll(() => temp.app.settings().theme).toBe('light')

      // Dark: dark although the system now prefers light.
      await page.emulateMedia({ colorScheme: 'light' })
      await page.getByTestId('settings-theme-dark').check()
      await expectLook(page, 'dark')
      await expect.poll(() => temp.app.settings().theme).toBe('dark')
      await page.keyboard.press('Escape')

      // Kept after a reload (the page asks settings.get again), whatever the system says.
      await page.reload()
      await page.getByTestId('new-conversation').waitFor()
      await expectLook(page, 'dark')
      await page.getByTestId('settings-button').click()
      expect(await page.getByTestId('settings-theme-dark').isChecked()).toBe(true)
      await page.keyboard.press('Escape')

      // The palette page follows the saved theme too.
      const palette = await session.browser.newPage()
      await palette.emulateMedia({ colorScheme: 'light' })
      const paletteUrl = new URL(host.url)
      paletteUrl.pathname = '/palette.html'
      await palette.goto(paletteUrl.toString())
      await palette.getByTestId('palette').waitFor()
      await expectLook(palette, 'dark')

      // The quick toggle in the sidebar: dark → system (light, as emulated) → light → dark.
      const toggle = page.getByTestId('theme-toggle')
      expect(await toggle.getAttribute('title')).toBe(language === 'en' ? 'Theme: Dark. Click for System.' : '主题：深色。点击切换为跟随系统。')
      await toggle.click()
      await expect.poll(() => temp.app.settings().theme).toBe('system')
      await expectLook(page, 'light')
      await page.emulateMedia({ colorScheme: 'dark' })
      await expectLook(page, 'dark')
      // The palette hears settings_changed and follows the system again.
      await palette.emulateMedia({ colorScheme: 'light' })
      await expectLook(palette, 'light')
      await toggle.click()
      await expect.poll(() => temp.app.settings().theme).toBe('light')
      await expectLook(page, 'light')
      await toggle.click()
      await expect.poll(() => temp.app.settings().theme).toBe('dark')
      await expectLook(page, 'dark')
      await expectLook(palette, 'dark')
      await palette.close()
    })
  }
})
