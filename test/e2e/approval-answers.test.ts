/**
 * Issue 22, item 3, in a real Chromium through the web host, in English and Chinese: who answered
 * an approval (which front door), when, and the reason stay on the tool card after a reload and in
 * a second tab — read back from the store, not only from the live event. Before, only the status
 * badge survived. Item 7: the denial is said once on the card (no "output" repeating it in
 * English), and the model's text has a full stop after the reason. Screenshot: approval-answer-{lang}.png.
 */
import { join } from 'node:path'
import type { Locator } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { openToolCard } from '../helpers/tool-card'
import { startUiSession, type UiSession } from '../helpers/ui-session'

// No full stop: the model's text must add one before "It did not run." (item 7).
const REASON = 'Keep the build folder'
const TEXT = {
  en: { denied: `You denied this call (${REASON}); it did not run.`, via: 'in the browser' },
  'zh-CN': { denied: `你拒绝了这次调用（${REASON}），未运行。`, via: '在浏览器中' }
} as const

const shell = (command: string) => ({ toolCalls: [{ name: 'shell', args: { command } }] })

/** The denial said once (its result line, with the reason), where and when under it, and no "output". */
async function expectAnswer(card: Locator, text: (typeof TEXT)[keyof typeof TEXT]): Promise<void> {
  // Folded (issue 22, item 8): the line says the denial with its reason; opened, the rest.
  await expect.poll(() => card.getByTestId('tool-header-result').innerText()).toBe(text.denied)
  await openToolCard(card)
  const resolution = card.getByTestId('tool-resolution')
  await resolution.waitFor()
  const meta = await resolution.innerText()
  expect(meta).toContain(text.via)
  expect(meta).toMatch(/\d{2}:\d{2}:\d{2}/)
  expect(await card.getByTestId('tool-result-line').innerText()).toBe(text.denied)
  const whole = await card.innerText()
  expect(whole.split(REASON).length - 1).toBe(1)
  expect(await card.getByTestId('tool-call-output').count()).toBe(0)
}

describe.skipIf(!hasChromium())('approval answers kept in the timeline', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: the answer, the front door, the time and the reason survive a reload and show in a second tab`, async () => {
      const text = TEXT[language]
      session = await startUiSession([shell('rm -rf build'), { text: 'Left it alone.' }], { language })
      const { page, host, browser } = session
      await page.emulateMedia({ colorScheme: 'light' })
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      await page.getByTestId('composer-input').fill('Clean up')
      await page.getByTestId('send-button').click()

      const modal = page.getByTestId('approval-modal')
      await modal.waitFor({ state: 'visible' })
      await modal.getByTestId('approval-deny-reason').fill(REASON)
      await expect.poll(() => modal.getByTestId('approval-deny').isEnabled()).toBe(true)
      await modal.getByTestId('approval-deny').click()
      await modal.waitFor({ state: 'hidden' })
      await page.getByTestId('message-assistant').last().getByText('Left it alone.').waitFor()
      const card = () => page.locator('[data-testid="tool-call"][data-tool="shell"]').first()
      await expectAnswer(card(), text)
      const toModel = JSON.stringify(session.server.requests[1]!.body.messages)
      expect(toModel).toContain(`Reason: ${REASON}. It did not run.`)

      // A reload reads it back from the store.
      await page.reload()
      await page.getByTestId('conversation-item').first().click()
      await expectAnswer(card(), text)
      await settled(page)
      await page.screenshot({ path: join(screenshotDir, `approval-answer-${language}.png`) })

      // A second tab that never saw the live events.
      const second = await browser.newPage()
      await second.goto(host.url)
      await second.getByTestId('conversation-item').first().click()
      await expectAnswer(second.locator('[data-testid="tool-call"][data-tool="shell"]').first(), text)
      await second.close()
    })
  }
})
