/**
 * Screenshots of every main view — the empty start, a chat with a tool call, an approval, the
 * settings, the desktop-control banner — in English and Chinese, light and dark, through the web
 * host in Chromium. They land in test-results/ (docs/screenshots/ with DESKCLAW_UPDATE_SCREENSHOTS=1).
 * Each one also checks that the view is really in that language and theme.
 */
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Settings } from '../../src/shared'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { openSettingsSection } from '../helpers/settings'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const VARIANTS: Array<{ language: Settings['language']; theme: 'light' | 'dark' }> = [
  { language: 'en', theme: 'light' },
  { language: 'en', theme: 'dark' },
  { language: 'zh-CN', theme: 'light' },
  { language: 'zh-CN', theme: 'dark' }
]

describe.skipIf(!hasChromium())('screenshots of the main views', () => {
  let session: UiSession | undefined
  afterAll(async () => {
    await session?.close()
  })

  for (const { language, theme } of VARIANTS) {
    it(`${language}, ${theme}`, async () => {
      await session?.close()
      session = await startUiSession(
        [
          { text: 'I will list the files first.', toolCalls: [{ name: 'file_list', args: {} }] },
          { text: 'The workspace has **no files** yet. Shall I create `notes/plan.md`?' },
          { toolCalls: [{ name: 'file_write', args: { path: 'notes/plan.md', content: '# Plan\n\n- build\n- ship\n' } }] },
          { text: 'Done.' }
        ],
        { language }
      )
      const { page, host } = session
      await page.emulateMedia({ colorScheme: theme })
      const shot = async (view: string) => {
        await settled(page)
        await page.screenshot({ path: join(screenshotDir, `${view}-${language}-${theme}.png`) })
      }
      await page.goto(host.url)
      // The page's own background colour, as Chromium computed it for this theme.
      const background: string = await page.locator('body').evaluate((body) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(body).backgroundColor)
      const channels = (background.match(/\d+/g) ?? []).slice(0, 3).map(Number)
      const luminance = channels.reduce((sum: number, channel: number) => sum + channel, 0) / 3
      expect(theme === 'dark' ? luminance < 90 : luminance > 170, `${theme} background ${background}`).toBe(true)
      expect(await page.getByTestId('new-conversation').innerText()).toContain(language === 'zh-CN' ? '新' : 'New')
      await shot('start')

      await page.getByTestId('new-conversation').click()
      await page.getByTestId('composer-input').fill(language === 'zh-CN' ? '看看工作区里有什么' : 'What is in the workspace?')
      await page.getByTestId('send-button').click()
      await page.locator('[data-testid="tool-call"][data-tool="file_list"][data-status="completed"]').waitFor()
      await page.getByText(language === 'zh-CN' ? 'Shall I create' : 'Shall I create').first().waitFor()
      await shot('chat')

      await page.getByTestId('composer-input').fill(language === 'zh-CN' ? '好的，写一个计划' : 'Yes, write a plan')
      await page.getByTestId('send-button').click()
      const modal = page.getByTestId('approval-modal')
      await modal.waitFor({ state: 'visible' })
      await shot('approval')
      await page.getByTestId('approval-allow').click()
      await modal.waitFor({ state: 'hidden' })

      await page.getByTestId('settings-button').click()
      await openSettingsSection(page, 'model')
      await page.getByTestId('settings-provider').waitFor()
      await shot('settings')
    })
  }
})
