/**
 * Issue 22, item 6, in a real Chromium through the web host, in English and Chinese: while a call
 * runs its timer says it counts "so far" (approval waits included, its tooltip says); Stop ends it
 * as a neutral "Stopped" — no red badge, border, result line or output — and the final time says
 * it is the run time. Screenshot: stopped-call-{lang}.png.
 */
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const TEXT = {
  en: { soFar: /so far$/, stopped: 'Stopped', ran: /^ran /, ranHint: 'not counting any wait for your approval' },
  'zh-CN': { soFar: /^已过 /, stopped: '已停止', ran: /^运行 /, ranHint: '不含等待你批准的时间' }
} as const

describe.skipIf(!hasChromium())('a call Stop ended', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: reads "Stopped", neutral, with its timers labelled`, async () => {
      const text = TEXT[language]
      // Full autonomy: the command runs without a question, so Stop meets it running.
      session = await startUiSession([{ toolCalls: [{ name: 'shell', args: { command: 'sleep 30' } }] }, { text: 'ok' }], {
        language,
        autonomy: 'full'
      })
      const { page, host } = session
      await page.emulateMedia({ colorScheme: 'light' })
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      await page.getByTestId('composer-input').fill('wait')
      await page.getByTestId('send-button').click()

      const card = page.locator('[data-testid="tool-call"][data-tool="shell"]').first()
      await expect.poll(() => card.getAttribute('data-status')).toBe('running')
      const duration = card.getByTestId('tool-duration')
      await expect.poll(() => duration.innerText()).toMatch(text.soFar)

      await page.getByTestId('stop-button').click()
      await expect.poll(() => card.getAttribute('data-shown-status'), { timeout: 15_000 }).toBe('stopped')
      expect(await card.locator('.status-chip').innerText()).toBe(text.stopped)
      expect(await card.locator('.is-error').count()).toBe(0)
      const chipColor = await card.locator('.status-chip').evaluate((el) => (globalThis as unknown as { getComputedStyle(el: unknown): { color: string } }).getComputedStyle(el).color)
      const danger = await card.evaluate((el) =>
        (globalThis as unknown as { getComputedStyle(el: unknown): { getPropertyValue(name: string): string } }).getComputedStyle(el).getPropertyValue('--danger').trim()
      )
      expect(chipColor).not.toBe(danger)
      expect(await duration.innerText()).toMatch(text.ran)
      expect(await duration.getAttribute('title')).toContain(text.ranHint)
      await settled(page)
      await page.screenshot({ path: join(screenshotDir, `stopped-call-${language}.png`) })
    })
  }
})
