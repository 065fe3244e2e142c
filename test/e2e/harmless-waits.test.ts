/**
 * A harmless wait runs without a question, in English and in Simplified Chinese: the scripted model
 * calls the shell with `sleep 1 && echo done`, no approval modal ever shows, and the tool card
 * completes with the output `done` under the labels of the UI's language (i18n/en.ts, zh-CN.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../src/shared'
import { hasChromium } from '../helpers/browser'
import { openToolCard } from '../helpers/tool-card'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const COMMAND = 'sleep 1 && echo done'
const ANSWER = 'Waited a second; the command printed done.'

const LABELS = {
  en: { send: 'Wait a second, then say done', safe: 'Safe', completed: 'Completed', output: 'Output' },
  'zh-CN': { send: '等一秒，然后输出 done', safe: '安全', completed: '已完成', output: '输出' }
} as const

describe.skipIf(!hasChromium()).each(['en', 'zh-CN'] as const)('a harmless wait runs without approval (%s)', (language) => {
  const labels = LABELS[language]
  let session: UiSession

  beforeAll(async () => {
    session = await startUiSession([{ toolCalls: [{ name: 'shell', args: { command: COMMAND } }] }, { text: ANSWER }], { language })
  })

  afterAll(async () => {
    await session?.close()
  })

  it(`runs ${COMMAND} with no approval modal and shows the output done`, async () => {
    const { page, temp } = session
    expect(temp.app.settings().autonomy).toBe('supervised') // the default: writes would ask
    let modalSeen = false
    const modal = page.getByTestId('approval-modal')
    await page.goto(session.host.url)
    await page.getByTestId('new-conversation').click()
    await page.getByTestId('composer-input').fill(labels.send)
    await page.getByTestId('send-button').click()

    const card = page.locator('[data-testid="tool-call"][data-tool="shell"]').first()
    await card.waitFor()
    // Watch for the modal while the command runs (the sleep gives it a second to appear).
    await expect
      .poll(
        async () => {
          if ((await modal.count()) > 0) modalSeen = true
          return card.getAttribute('data-status')
        },
        { timeout: 15_000, interval: 50 }
      )
      .toBe('completed')
    expect(modalSeen).toBe(false)
    expect(await modal.count()).toBe(0)

    // The shell's result: what it printed, which is just `done` (the exit code is the result line's), in the opened card.
    await openToolCard(card)
    const output = (await card.getByTestId('tool-call-output').innerText()).trim()
    expect(output.split('\n')).toEqual(['done'])
    expect(await card.getByTestId('tool-verdict').getAttribute('data-kind')).toBe('safe')
    expect(await card.getByTestId('tool-verdict').innerText()).toBe(labels.safe)
    expect(await card.locator('.status-chip').innerText()).toBe(labels.completed)
    expect(await card.locator('.tool-section-label').filter({ hasText: labels.output }).isVisible()).toBe(true)
    await page.getByTestId('message-assistant').filter({ hasText: ANSWER }).waitFor()

    // Main agrees: assessed as allowed by policy, never asked, completed.
    const events: AgentEvent[] = temp.events
    const callId = (await card.getAttribute('data-call-id'))!
    expect(events.filter((e) => e.type === 'approval_requested')).toEqual([])
    expect(events.find((e) => e.type === 'risk_assessed' && e.callId === callId)).toMatchObject({ action: 'allow' })
    expect(events.find((e) => e.type === 'tool_call_completed' && e.callId === callId)).toBeTruthy()
    expect(temp.app.settings().language).toBe(language)
  })
})
