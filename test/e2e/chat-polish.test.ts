/**
 * Issue 22, item 11, in a real Chromium through the web host, in English and Chinese: every message
 * has its time (the full date on hover); a message's actions are reached with Tab and shown while
 * focused; a wide table shows scroll shadows; a dark dialog dims the page to at least 65 %; text
 * is drawn in a named UI font from the stack, not DejaVu, where one is installed (here Noto Sans
 * CJK SC). Screenshot: chat-polish-{lang}.png.
 */
import { join } from 'node:path'
import type { Locator } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

type Styled = { getComputedStyle(el: unknown): Record<string, string> & { getPropertyValue(name: string): string } }
const css = (locator: Locator, property: string) =>
  locator.evaluate((el, property) => (globalThis as unknown as Styled).getComputedStyle(el)[property] as string, property)

const WIDE_TABLE = `| ${Array.from({ length: 14 }, (_, i) => `column number ${i + 1}`).join(' | ')} |\n|${' --- |'.repeat(14)}\n| ${Array.from({ length: 14 }, (_, i) => `value ${i + 1}`).join(' | ')} |`

describe.skipIf(!hasChromium())('chat polish', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: times, keyboard actions, table scroll cue, dark dimming, UI font`, async () => {
      session = await startUiSession([{ text: `Here:\n\n${WIDE_TABLE}` }], { language })
      const { page, host } = session
      await page.emulateMedia({ colorScheme: 'light' })
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      await page.getByTestId('composer-input').fill('Show a wide table')
      await page.getByTestId('send-button').click()
      const answer = page.getByTestId('message-assistant').first()
      await answer.locator('table').waitFor()

      // Times on both messages, the full date in the title.
      for (const message of [page.getByTestId('message-user').first(), answer]) {
        const time = message.getByTestId('message-time')
        expect(await time.innerText()).toMatch(/\d{1,2}:\d{2}/)
        expect(await time.getAttribute('title')).toMatch(/20\d\d/)
        expect(await time.isVisible()).toBe(true)
      }

      // The answer's copy button: reached by Tab, and visible while focused.
      const copy = answer.getByTestId('message-copy')
      expect(await css(answer.getByTestId('message-actions'), 'opacity')).toBe('0')
      await page.getByTestId('composer-input').focus()
      for (let i = 0; i < 40 && !(await copy.evaluate((el) => el === el.ownerDocument.activeElement)); i++) await page.keyboard.press('Shift+Tab')
      expect(await copy.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)
      await expect.poll(() => css(answer.getByTestId('message-actions'), 'opacity')).toBe('1')

      // The wide table scrolls in its box, with shadow cues in its background.
      const scroll = answer.locator('.table-scroll')
      expect(await scroll.evaluate((el) => (el as unknown as { scrollWidth: number; clientWidth: number }).scrollWidth > (el as unknown as { clientWidth: number }).clientWidth)).toBe(true)
      expect(await css(scroll, 'backgroundImage')).toContain('radial-gradient')

      // The UI font: a named one from the stack, not the fontconfig default.
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('DOM.enable')
      await cdp.send('CSS.enable')
      const { root } = await cdp.send('DOM.getDocument')
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '[data-testid="message-assistant"] .markdown p' })
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId })
      expect(fonts.map((font) => font.familyName)).not.toContain('DejaVu Sans')
      expect(fonts[0]?.familyName).toMatch(/Noto Sans CJK/)
      await settled(page)
      await page.screenshot({ path: join(screenshotDir, `chat-polish-${language}.png`) })

      // Dark mode: a dialog's backdrop dims the page to at least 65 %.
      await page.emulateMedia({ colorScheme: 'dark' })
      await page.getByTestId('settings-button').click()
      const backdrop = page.locator('.dialog-backdrop').first()
      await backdrop.waitFor()
      const alpha = Number(/rgba\(.*,\s*([\d.]+)\)/.exec(await css(backdrop, 'backgroundColor'))?.[1] ?? '1')
      expect(alpha).toBeGreaterThanOrEqual(0.65)
    })
  }
})
