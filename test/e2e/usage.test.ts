/**
 * Token usage and cost in a real Chromium through the web host, in English and Chinese: a scripted
 * model that reports its tokens (cached and reasoning ones too) answers twice; each answer shows its
 * own tokens, the chat header the conversation's total, and no cost while the model has no price.
 * A price entered in Settings → Model prices (a wrong one refused at its field first) is saved, and
 * the cost appears under the answers and in the header at once, and again after a reload (the runs'
 * model and tokens come from the store). Screenshots usage-en.png and usage-zh-CN.png.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import type { Settings } from '../../src/shared'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { openSettingsSection } from '../helpers/settings'
import { startUiSession, type UiSession } from '../helpers/ui-session'

/*
 * 1,200 in (1,000 of them cached) and 34 out, then 17,000 in and 200 out (50 reasoning): 18,434 in
 * all. At 2.5 / 10 / 1.25 per million: 0.00209 (shown as "<0.01") and 0.0445, 0.04659 together.
 */
const SCRIPT = [
  { text: 'First answer.', usage: { input: 1200, output: 34, cachedInput: 1000 } },
  { text: 'Second answer.', usage: { input: 17_000, output: 200, reasoning: 50 } }
]

const TEXT = {
  en: {
    first: '1,200 in · 34 out · 1,000 cached',
    second: '17k in · 200 out · 50 reasoning',
    total: '18.4k tokens',
    tooltip: ['Model: scripted-model', 'Input: 1,200 tokens (1,000 from the cache)', 'Output: 34 tokens', 'Total: 1,234 tokens'],
    noPrice: 'No price set for scripted-model in Settings',
    headerNoPrice: 'No cost: set a price for scripted-model in Settings',
    currency: 'USD' as const,
    firstCost: '<$0.01',
    secondCost: '$0.04',
    totalCost: '$0.05',
    exactCost: 'Cost: $0.00209',
    invalid: 'A price is a number, 0 or more'
  },
  'zh-CN': {
    first: '输入 1,200 · 输出 34 · 缓存 1,000',
    second: '输入 1.7万 · 输出 200 · 推理 50',
    total: '1.84万 token',
    tooltip: ['模型：scripted-model', '输入：1,200 个 token（其中缓存命中 1,000）', '输出：34 个 token', '合计：1,234 个 token'],
    noPrice: '设置中没有 scripted-model 的价格',
    headerNoPrice: '无费用：请在 设置 → 模型价格 中为 scripted-model 填写价格',
    currency: 'CNY' as const,
    firstCost: '<¥0.01',
    secondCost: '¥0.04',
    totalCost: '¥0.05',
    exactCost: '费用：¥0.00209',
    invalid: '价格须为不小于 0 的数字'
  }
}

async function ask(page: Page, question: string, answers: number) {
  await page.getByTestId('composer-input').fill(question)
  await page.getByTestId('send-button').click()
  await expect.poll(() => page.getByTestId('message-assistant').count()).toBe(answers)
  await page.getByTestId('send-button').waitFor() // the run is over (Stop is Send again)
}

const badges = (page: Page) => page.getByTestId('usage-badge')

describe.skipIf(!hasChromium())('token usage and cost', () => {
  let session: UiSession | undefined
  afterAll(async () => {
    await session?.close()
  })

  for (const language of ['en', 'zh-CN'] as const satisfies ReadonlyArray<Settings['language']>) {
    it(`${language}: each answer's tokens, the conversation's total, and the cost once a price is set`, async () => {
      const t = TEXT[language]
      await session?.close()
      session = await startUiSession(SCRIPT, { language })
      const { page, host, temp } = session
      await page.emulateMedia({ colorScheme: 'light' })
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      const header = page.getByTestId('conversation-usage')
      expect(await header.count()).toBe(0) // nothing used yet, nothing shown

      await ask(page, 'First question', 1)
      await expect.poll(() => badges(page).count()).toBe(1)
      await ask(page, 'Second question', 2)
      await expect.poll(() => badges(page).count()).toBe(2)

      // Each answer its own tokens (under its own message), no cost without a price; the tooltip has the exact numbers and the model.
      const answers = page.getByTestId('message-assistant')
      expect(await answers.nth(0).getByTestId('usage-badge').innerText()).toBe(t.first)
      expect(await answers.nth(1).getByTestId('usage-badge').innerText()).toBe(t.second)
      const tooltip = (await answers.nth(0).getByTestId('usage-badge').getAttribute('title'))!.split('\n')
      expect(tooltip.slice(0, 4)).toEqual(t.tooltip)
      expect(tooltip.at(-1)).toContain(t.noPrice)
      expect(await badges(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-cost')))).toEqual(['false', 'false'])
      // The header: the whole conversation, no cost either.
      expect(await header.innerText()).toBe(t.total)
      expect(await header.getAttribute('data-cost')).toBe('false')
      expect(await header.getAttribute('title')).toContain(t.headerNoPrice)

      // Settings → Model prices: "Add a price" suggests the model in use; a wrong price is refused at its row.
      await page.getByTestId('settings-button').click()
      const panel = page.getByTestId('settings-panel')
      await panel.waitFor({ state: 'visible' })
      await openSettingsSection(page, 'prices')
      const section = panel.getByTestId('model-prices-section')
      await section.getByTestId('price-add').click()
      const row = section.getByTestId('price-row')
      expect(await row.count()).toBe(1)
      expect(await row.getByTestId('price-model').inputValue()).toBe('scripted-model')
      await row.getByTestId('price-input').fill('-1')
      await row.getByTestId('price-output').fill('10')
      const error = section.locator('[data-testid="settings-field-error"][data-field="modelPrices"]')
      expect(await error.innerText()).toContain(t.invalid)
      expect(await panel.getByTestId('settings-save').isDisabled()).toBe(true)
      await row.getByTestId('price-input').fill('2.5')
      await row.getByTestId('price-cached').fill('1.25')
      await row.getByTestId('price-currency').selectOption(t.currency)
      expect(await error.count()).toBe(0)
      await panel.getByTestId('settings-save').click()
      await panel.getByTestId('settings-saved').waitFor()
      const saved: Settings['modelPrices'] = {
        'scripted-model': { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25, ...(t.currency === 'CNY' ? { currency: 'CNY' } : {}) }
      }
      expect(temp.app.settings().modelPrices).toEqual(saved)
      await page.keyboard.press('Escape')
      await panel.waitFor({ state: 'hidden' })

      // The cost is there at once: under each answer (a cost under a cent never reads 0.00) and in the header.
      await expect.poll(() => header.innerText()).toBe(`${t.total} · ${t.totalCost}`)
      expect(await header.getAttribute('data-cost')).toBe('true')
      expect(await answers.nth(0).getByTestId('usage-badge').innerText()).toBe(`${t.first} · ${t.firstCost}`)
      expect(await answers.nth(1).getByTestId('usage-badge').innerText()).toBe(`${t.second} · ${t.secondCost}`)
      expect(await answers.nth(0).getByTestId('usage-badge').getAttribute('title')).toContain(t.exactCost)

      // The screenshot: the header's total and the last answer's line, shown as it is hovered.
      await answers.nth(1).hover()
      await settled(page)
      await page.screenshot({ path: join(screenshotDir, `usage-${language}.png`) })

      // After a reload the same, from the store: each run's model and tokens were kept.
      await page.reload()
      await expect.poll(() => badges(page).count()).toBe(2)
      expect(await page.getByTestId('conversation-usage').innerText()).toBe(`${t.total} · ${t.totalCost}`)
      expect(await page.getByTestId('message-assistant').nth(1).getByTestId('usage-badge').innerText()).toBe(`${t.second} · ${t.secondCost}`)
    })
  }
})
