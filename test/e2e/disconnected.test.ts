/**
 * The web page when DeskClaw goes away, in English and Chinese: Send is disabled with the reason and
 * the draft stays; an address where nothing answers any more, or where a restarted DeskClaw refuses
 * the old token, is said to be gone (no endless countdown); DeskClaw back at the same address and
 * token → connected, Send works again.
 */
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { startWebHost, type WebHost } from '../../src/main/bridge'
import type { Settings } from '../../src/shared'
import { hasChromium, rendererDir } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const TEXT = {
  en: { offline: 'Not connected to DeskClaw', gone: 'address it printed', noAnswer: 'no longer answers', refused: 'no longer accepts this page', countdown: 'Reconnecting in' },
  'zh-CN': { offline: '未连接到 DeskClaw', gone: '打印的地址', noAnswer: '已无响应', refused: '不再接受此页面', countdown: '秒后重连' }
} as const

const LANGUAGES: Array<Settings['language']> = ['en', 'zh-CN']

const banner = (page: Page) => page.getByTestId('connection-banner')

/** Clicks "Try again" (when it shows) until the banner says `reason`: attempts at a gone address are slow. */
async function retryUntilReason(page: Page, reason: string): Promise<void> {
  await expect
    .poll(
      async () => {
        if ((await banner(page).getAttribute('data-reason')) === reason) return reason
        const retry = page.getByTestId('connection-retry')
        if (await retry.isVisible()) await retry.click().catch(() => {})
        return banner(page).getAttribute('data-reason')
      },
      { timeout: 30_000, interval: 300 }
    )
    .toBe(reason)
}

describe.skipIf(!hasChromium())('disconnected from the web host', () => {
  let session: UiSession | undefined
  let extraHost: WebHost | undefined
  afterEach(async () => {
    await extraHost?.close()
    extraHost = undefined
    await session?.close()
    session = undefined
  })

  for (const language of LANGUAGES) {
    it(`disables Send with the reason, says when the address is gone, and recovers (${language})`, async () => {
      const text = TEXT[language]
      session = await startUiSession([{ text: 'Back online: got it.' }], { language })
      const { page, host, temp } = session
      const { port, token } = host
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      const input = page.getByTestId('composer-input')
      const send = page.getByTestId('send-button')
      const draft = language === 'en' ? 'Please keep this draft' : '请保留这份草稿'
      await input.fill(draft)
      expect(await send.isEnabled()).toBe(true)

      // DeskClaw closes: reconnecting, Send disabled with the reason, the draft kept (Enter does not send).
      await host.close()
      await expect.poll(() => banner(page).getAttribute('data-state')).toBe('disconnected')
      await expect.poll(() => send.isDisabled()).toBe(true)
      expect(await page.getByTestId('composer-offline').innerText()).toContain(text.offline)
      expect(await send.getAttribute('title')).toContain(text.offline)
      await input.press('Enter')
      expect(await input.inputValue()).toBe(draft)
      expect(await page.locator('.composer-error').count()).toBe(0)

      // Nothing answers there for several attempts: the address is gone, no more countdown.
      await expect.poll(() => banner(page).getAttribute('data-reason'), { timeout: 30_000 }).toBe('no-answer')
      expect(await banner(page).innerText()).toContain(text.noAnswer)
      expect(await banner(page).innerText()).toContain(text.gone)
      expect(await banner(page).innerText()).not.toContain(text.countdown)
      expect(await page.getByTestId('composer-offline').innerText()).toContain(text.offline)
      expect(await send.isDisabled()).toBe(true)

      // DeskClaw restarted on the same port with a new token: this page's token is refused.
      extraHost = await startWebHost({ app: temp.app, rendererDir, port, token: `${token}-new` })
      await retryUntilReason(page, 'token-refused')
      expect(await banner(page).innerText()).toContain(text.refused)
      expect(await banner(page).innerText()).not.toContain(text.countdown)
      expect(await input.inputValue()).toBe(draft)
      expect(await send.isDisabled()).toBe(true)

      // The same address and token answer again: connected, the draft still there, Send works.
      await extraHost.close()
      extraHost = await startWebHost({ app: temp.app, rendererDir, port, token })
      await expect
        .poll(
          async () => {
            const retry = page.getByTestId('connection-retry')
            if (await retry.isVisible()) await retry.click().catch(() => {})
            return banner(page).count()
          },
          { timeout: 30_000, interval: 300 }
        )
        .toBe(0)
      expect(await input.inputValue()).toBe(draft)
      await expect.poll(() => send.isEnabled()).toBe(true)
      expect(await page.getByTestId('composer-offline').count()).toBe(0)
      await send.click()
      await expect.poll(() => page.getByTestId('message-assistant').last().innerText(), { timeout: 20_000 }).toContain('Back online: got it.')
      expect(await page.getByTestId('message-user').last().innerText()).toContain(draft)
    })
  }
})
