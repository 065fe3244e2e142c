/**
 * How full the model's context is, and where it was compacted (docs/architecture.md, "Context
 * window" and "Compaction"), in a real Chromium through the web host, in English and Chinese: the
 * chat header's meter shows the latest request's input tokens of the window with the counts and the
 * window's source in its tooltip; a model that refuses a request as too long makes the run compact
 * and retry, and the timeline marks it; a reload shows both again, from the store.
 */
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import type { Settings } from '../../src/shared'
import type { RecordedRequest, ScriptStep } from '../fixtures/scripted-types'
import { en } from '../../src/renderer/src/i18n/en'
import { zhCN } from '../../src/renderer/src/i18n/zh-CN'
import { hasChromium } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const isSummaryRequest = (request: RecordedRequest) => JSON.stringify(request.body?.messages ?? []).includes('You summarise an AI agent')

const SCRIPT: ScriptStep[] = [
  { text: 'First answer.', usage: { input: 12_300, output: 20 } },
  { toolCalls: [{ name: 'file_list', args: { path: '.' } }], usage: { input: 12_500, output: 10 } },
  // The server refuses the next request as over its window: the run compacts (a summary) and sends it again.
  { status: 400, errorBody: { error: { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } } },
  (request) => (isSummaryRequest(request) ? { text: 'Summary: the user asked twice; the agent listed the workspace.' } : { text: 'not a summary request' }),
  { text: 'Second answer.', usage: { input: 3000, output: 20 } }
]

const TEXT = {
  en: {
    first: { line: '38 %', tooltip: 'Context: 12.3k of 32.8k tokens (38 %) · window from Settings' },
    second: { line: '9 %', tooltip: 'Context: 3,000 of 32.8k tokens (9 %) · window from Settings' },
    marker: /^The model refused a request as too long; context compacted: \d+ earlier messages summarised/
  },
  'zh-CN': {
    first: { line: '38%', tooltip: '上下文：已用 1.23万 / 3.28万 token（38%） · 窗口大小来自设置' },
    second: { line: '9%', tooltip: '上下文：已用 3,000 / 3.28万 token（9%） · 窗口大小来自设置' },
    marker: /^模型因请求过长而拒绝；上下文已压缩：\d+ 条较早的消息已概括/
  }
}

async function ask(page: Page, question: string, answers: number) {
  await page.getByTestId('composer-input').fill(question)
  await page.getByTestId('send-button').click()
  await expect.poll(() => page.getByTestId('message-assistant').count()).toBe(answers)
  await page.getByTestId('send-button').waitFor() // the run is over (Stop is Send again)
}

describe.skipIf(!hasChromium())('context meter and compaction marker', () => {
  let session: UiSession | undefined
  afterAll(async () => {
    await session?.close()
  })

  for (const language of ['en', 'zh-CN'] as const satisfies ReadonlyArray<Settings['language']>) {
    it(`${language}: the header shows how full the window is; a refused request is compacted, retried and marked`, async () => {
      const t = TEXT[language]
      await session?.close()
      session = await startUiSession(SCRIPT, { language, contextWindow: 32_768 })
      const { page, host, server } = session
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      const meter = page.getByTestId('context-meter')
      expect(await meter.count()).toBe(0) // nothing sent yet, nothing shown

      await ask(page, 'First question', 1)
      await expect.poll(() => meter.innerText()).toBe(t.first.line)
      expect(await meter.getAttribute('title')).toBe(t.first.tooltip)
      expect(await meter.getAttribute('data-percent')).toBe('38')
      expect(await page.getByTestId('compaction-marker').count()).toBe(0)

      await ask(page, 'Second question', 2)
      expect(await page.getByTestId('message-assistant').nth(1).innerText()).toContain('Second answer.')
      await expect.poll(() => meter.innerText()).toBe(t.second.line)
      expect(await meter.getAttribute('title')).toBe(t.second.tooltip)
      const marker = page.getByTestId('compaction-marker')
      expect(await marker.count()).toBe(1)
      expect(await marker.innerText()).toMatch(t.marker)
      // The retried request carried the summary.
      expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain('Summary: the user asked twice')

      // After a reload the same, from the store.
      await page.reload()
      await expect.poll(() => page.getByTestId('message-assistant').count()).toBe(2)
      await expect.poll(() => page.getByTestId('context-meter').innerText()).toBe(t.second.line)
      expect(await page.getByTestId('compaction-marker').innerText()).toMatch(t.marker)
    })
  }

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: Settings → Model providers sets the window; a window too small to be one is refused at its field`, async () => {
      const d = { en, 'zh-CN': zhCN }[language]
      await session?.close()
      session = await startUiSession([{ text: 'ok' }], { language })
      const { page, host, temp } = session
      expect(temp.app.settings().contextWindow).toBe(0)
      await page.goto(host.url)
      await page.getByTestId('settings-button').click()
      const panel = page.getByTestId('settings-panel')
      await panel.getByTestId('settings-section-tab-model').click()
      const input = panel.getByTestId('settings-context-window')
      expect(await page.locator(`label[for="${await input.getAttribute('id')}"]`).innerText()).toBe(d['settings.contextWindow'])
      expect(await input.inputValue()).toBe('0')
      await input.fill('500')
      const error = panel.locator('[data-testid="settings-field-error"][data-field="contextWindow"]')
      expect(await error.innerText()).toContain(d['settings.contextWindowInvalid'])
      expect(await panel.getByTestId('settings-save').isDisabled()).toBe(true)
      await input.fill('16384')
      expect(await error.count()).toBe(0)
      await panel.getByTestId('settings-save').click()
      await panel.getByTestId('settings-saved').waitFor()
      expect(temp.app.settings().contextWindow).toBe(16_384)
    })
  }
})
