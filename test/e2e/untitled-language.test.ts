/**
 * Issue 22, item 4, in a real Chromium through the web host: a conversation made in one UI language
 * is called "New conversation" / "新对话" in whichever language the UI shows now (it is stored
 * untitled), in the sidebar and in the chat header, both ways round.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { hasChromium } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const UNTITLED = { en: 'New conversation', 'zh-CN': '新对话' } as const

describe.skipIf(!hasChromium())('the untitled conversation follows the UI language', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const [made, shown] of [
    ['en', 'zh-CN'],
    ['zh-CN', 'en']
  ] as const) {
    it(`made in ${made}, shown in ${shown}`, async () => {
      session = await startUiSession([], { language: made })
      const { page, host } = session
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      const item = page.getByTestId('conversation-item').first()
      await expect.poll(() => item.innerText()).toContain(UNTITLED[made])
      await page.getByTestId('language-toggle').click()
      await expect.poll(() => item.innerText()).toContain(UNTITLED[shown])
      expect(await item.innerText()).not.toContain(UNTITLED[made])
      expect(await page.locator('.chat-title').innerText()).toBe(UNTITLED[shown])
      // Also after a reload (read back from the store).
      await page.reload()
      await expect.poll(() => page.getByTestId('conversation-item').first().innerText()).toContain(UNTITLED[shown])
    })
  }
})
