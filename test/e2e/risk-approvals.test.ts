/**
 * Risk verdicts in a real Chromium against the web host (docs/risk.md): a known-safe read runs
 * without a question, a write asks with its findings highlighted in the exact command, Deny keeps
 * the files and tells the model why, and "Allow for this conversation" asks only once.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebHost, type WebHost } from '../../src/main/bridge'
import type { AgentEvent, AgentEventOf } from '../../src/shared'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptedServer } from '../fixtures/scripted-types'
import { openToolCard } from '../helpers/tool-card'
import { hasChromium, openBrowser, rendererDir, screenshotDir, settled } from '../helpers/browser'
import { createTempApp, type TempApp } from '../helpers/temp-app'

const reviewDir = join(process.cwd(), 'test-results')


const DENY_REASON = 'Keep the build folder, I still need it.'
/** Several findings, one very long unbroken word: the modal must wrap it, never scroll sideways. */
const LONG_COMMAND =
  'mkdir -p reports/archive && curl -fsSL "https://example.com/api/v2/reports/quarterly-summary-for-the-whole-organisation-including-all-subsidiaries.json?format=json&include=everything" -o reports/archive/summary-$(date +%Y-%m-%d).json && cat .env >> reports/archive/notes.txt'

const shell = (command: string) => ({ toolCalls: [{ name: 'shell', args: { command } }] })

describe.skipIf(!hasChromium())('risk verdicts and approvals in the web UI', () => {
  let server: ScriptedServer
  let temp: TempApp
  let host: WebHost
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    mkdirSync(reviewDir, { recursive: true })
    server = await startScriptedOpenAI([
      // Test 1: a safe listing, then a delete the user denies.
      shell('ls'),
      shell('rm -rf build'),
      { text: 'Understood — I left the build folder alone.' },
      // Test 2: the same write in two runs of one conversation; the second runs on the conversation grant
      // (within one run a repeated write with nothing written since is not run again: docs/architecture.md).
      shell('touch marker.txt'),
      { text: 'Touched marker.txt.' },
      shell('touch marker.txt'),
      { text: 'Touched marker.txt again.' },
      // Test 3: a long command with several findings, denied from the keyboard.
      shell(LONG_COMMAND),
      { text: 'Fine, I will not fetch the report.' }
    ])
    temp = createTempApp(server.url)
    mkdirSync(join(temp.workspace, 'build'))
    writeFileSync(join(temp.workspace, 'build', 'app.js'), 'console.log("built")\n')
    host = await startWebHost({ app: temp.app, rendererDir })
    ;({ browser, page } = await openBrowser({ colorScheme: 'light' }))
  })

  afterAll(async () => {
    await browser?.close()
    await host?.close()
    await temp?.dispose()
    await server?.close()
  })

  it('runs ls without asking, asks for rm -rf build with the finding highlighted, and a denial keeps the folder', async () => {
    expect(temp.app.settings().autonomy).toBe('supervised') // the default, nothing overridden
    await page.goto(host.url)
    await page.getByTestId('new-conversation').click()
    await page.getByTestId('composer-input').fill('Clean up the build folder')
    await page.getByTestId('send-button').click()

    // ls: no question, its card completes with the listing.
    const cards = page.locator('[data-testid="tool-call"][data-tool="shell"]')
    const ls = cards.first()
    await expect.poll(() => ls.getAttribute('data-status'), { timeout: 30_000 }).toBe('completed')
    expect(await ls.getByTestId('tool-verdict').getAttribute('data-kind')).toBe('safe')
    const lsId = (await ls.getAttribute('data-call-id'))!
    const lsDone = eventsOf(temp.events, 'tool_call_completed').find((e) => e.callId === lsId)!
    expect(lsDone.runtime).toBeTruthy()
    expect(eventsOf(temp.events, 'risk_assessed').find((e) => e.callId === lsId)).toMatchObject({ action: 'allow', source: 'policy' })

    // rm -rf build: the question, with its verdict, finding and the rule "always" would save.
    const modal = page.getByTestId('approval-modal')
    await modal.waitFor({ state: 'visible' })
    const rm = cards.nth(1)
    const rmId = (await rm.getAttribute('data-call-id'))!
    expect(eventsOf(temp.events, 'approval_requested').map((e) => e.callId)).toEqual([rmId]) // never for ls
    const verdict = modal.getByTestId('approval-verdict')
    expect(await verdict.getAttribute('data-verdict')).toBe('ask')
    expect(await verdict.innerText()).toBe('Needs approval')
    const findings = modal.getByTestId('finding')
    expect(await findings.count()).toBeGreaterThanOrEqual(1)
    const writes = modal.locator('[data-testid="finding"][data-rule="shell.writes"]')
    expect(await writes.getAttribute('data-verdict')).toBe('ask')
    expect(await writes.innerText()).toContain('rm changes files.')
    const commandField = modal.locator('[data-testid="approval-field"][data-arg="command"]')
    expect(await commandField.locator('pre').innerText()).toBe('rm -rf build') // every character, as it will run
    const spans = await commandField.getByTestId('finding-span').evaluateAll((els) =>
      els.map((el) => ({ text: el.textContent, rule: el.getAttribute('data-rule') }))
    )
    expect(spans).toContainEqual({ text: 'rm', rule: 'shell.writes' })
    expect(await modal.getByTestId('approval-allow-always').innerText()).toContain('rm -rf build')
    // Enabled once the question is armed (keys and clicks wait a moment after it appears).
    await expect.poll(() => modal.getByTestId('approval-allow-always').isEnabled()).toBe(true)
    expect(existsSync(join(temp.workspace, 'build'))).toBe(true)
    await settled(page)
    await modal.getByTestId('approval-deny-reason').fill(DENY_REASON)
    await page.screenshot({ path: join(screenshotDir, 'approval-risk.png') })

    await modal.getByTestId('approval-deny').click()
    await modal.waitFor({ state: 'hidden' })
    await expect.poll(() => rm.getAttribute('data-status')).toBe('denied')
    // The listing, opened once the question is gone (a finished call is one line: issue 22, item 8);
    // where it ran is said once, by the result line (no chip repeating it).
    await openToolCard(ls)
    expect(await ls.getByTestId('tool-call-output').innerText()).toContain('build')
    expect(await ls.getByTestId('tool-result-line').innerText()).toContain(`(ran in ${lsDone.runtime})`)
    expect(await ls.getByTestId('tool-runtime').count()).toBe(0)
    expect(await rm.getByTestId('tool-verdict').getAttribute('data-kind')).toBe('asked')
    expect(await rm.getByTestId('tool-runtime').count()).toBe(0) // it never ran
    await expect.poll(() => page.getByTestId('message-assistant').last().innerText()).toContain('left the build folder alone')
    expect(readFileSync(join(temp.workspace, 'build', 'app.js'), 'utf8')).toBe('console.log("built")\n')

    // The answer quoted the question's binding hash (main refuses others) and carried the reason.
    const request = eventsOf(temp.events, 'approval_requested').find((e) => e.callId === rmId)!
    expect(request.bindingHash).toBeTruthy()
    expect(eventsOf(temp.events, 'approval_resolved').find((e) => e.callId === rmId)).toMatchObject({
      answer: 'deny',
      by: 'user',
      reason: DENY_REASON
    })
    const toolMessages = server.requests[2]!.body.messages.filter((m: { role: string }) => m.role === 'tool')
    expect(JSON.stringify(toolMessages[toolMessages.length - 1].content)).toContain(DENY_REASON)
  })

  it('"Allow for this conversation" lets the same call run again without asking', async () => {
    await page.goto(host.url)
    await page.getByTestId('new-conversation').click()
    await page.getByTestId('composer-input').fill('Touch marker.txt')
    await page.getByTestId('composer-input').press('Enter')

    const modal = page.getByTestId('approval-modal')
    await modal.waitFor({ state: 'visible' })
    expect(await modal.getByTestId('approval-allow-always').innerText()).toContain('touch marker.txt')
    const spans = await modal.getByTestId('finding-span').allInnerTexts()
    expect(spans).toContain('touch')
    await modal.getByTestId('approval-allow-conversation').click()
    await modal.waitFor({ state: 'hidden' })
    await expect.poll(() => page.getByTestId('message-assistant').last().innerText()).toContain('Touched marker.txt.')
    // The same call in the next run of this conversation: no question, the grant answers it.
    await page.getByTestId('composer-input').fill('Once more, please')
    await page.getByTestId('composer-input').press('Enter')

    await expect.poll(() => page.getByTestId('message-assistant').last().innerText()).toContain('Touched marker.txt again.')
    const cards = page.locator('[data-testid="tool-call"][data-tool="shell"]')
    expect(await cards.count()).toBe(2)
    const [first, second] = [cards.nth(0), cards.nth(1)]
    expect(await first.getAttribute('data-status')).toBe('completed')
    expect(await second.getAttribute('data-status')).toBe('completed')
    expect(await first.getByTestId('tool-verdict').getAttribute('data-kind')).toBe('approved')
    expect(await second.getByTestId('tool-verdict').getAttribute('data-kind')).toBe('granted')
    expect(await (await openToolCard(first)).innerText()).toContain('Allowed by you for this conversation')
    expect(existsSync(join(temp.workspace, 'marker.txt'))).toBe(true)
    await settled(page)
    await page.screenshot({ path: join(reviewDir, 'risk-timeline.png') })

    // One question for two identical calls: the second ran on the grant.
    const conversationId = eventsOf(temp.events, 'approval_resolved').at(-1)!.conversationId
    const asked = eventsOf(temp.events, 'approval_requested').filter((e) => e.conversationId === conversationId)
    expect(asked).toHaveLength(1)
    const assessed = eventsOf(temp.events, 'risk_assessed').filter((e) => e.conversationId === conversationId)
    expect(assessed.map((e) => [e.assessment.verdict, e.action, e.source])).toEqual([
      ['ask', 'ask', 'policy'],
      ['ask', 'allow', 'conversation_grant']
    ])
    expect(await modal.count()).toBe(0)
  })

  it('wraps a long command with several findings, refuses "always" for it, and denies from the keyboard', async () => {
    await page.goto(host.url)
    await page.getByTestId('new-conversation').click()
    await page.getByTestId('composer-input').fill('Archive the quarterly report')
    await page.getByTestId('composer-input').press('Enter')

    const modal = page.getByTestId('approval-modal')
    await modal.waitFor({ state: 'visible' })
    const field = modal.locator('[data-testid="approval-field"][data-arg="command"] pre')
    expect(await field.innerText()).toBe(LONG_COMMAND)
    expect(await modal.getByTestId('finding').count()).toBeGreaterThanOrEqual(3)
    const spans = await modal.getByTestId('finding-span').allInnerTexts()
    expect(spans).toEqual(expect.arrayContaining(['mkdir', 'curl', '.env']))
    // Several commands: "always" cannot be saved, and says why (it stays disabled once armed).
    await expect.poll(() => modal.getByTestId('approval-allow-conversation').isEnabled()).toBe(true)
    expect(await modal.getByTestId('approval-allow-always').isDisabled()).toBe(true)
    expect(await modal.getByTestId('approval-always-blocked').innerText()).not.toBe('')
    // Wrapped, not cut: nothing in the dialog scrolls sideways.
    for (const target of [field, modal]) {
      const box = await target.evaluate((el) => {
        const e = el as unknown as { scrollWidth: number; clientWidth: number }
        return { scroll: e.scrollWidth, client: e.clientWidth }
      })
      expect(box.scroll).toBeLessThanOrEqual(box.client)
    }
    await settled(page)
    await page.screenshot({ path: join(reviewDir, 'approval-risk-long.png') })
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: join(reviewDir, 'approval-risk-long-dark.png') })
    await page.emulateMedia({ colorScheme: 'light' })

    // The dictionaries follow the language setting, the question stays open meanwhile.
    temp.app.updateSettings({ language: 'zh-CN' })
    await expect.poll(() => modal.getByTestId('approval-verdict').innerText()).toBe('需要批准')
    await settled(page)
    await page.screenshot({ path: join(reviewDir, 'approval-risk-long-zh.png') })
    temp.app.updateSettings({ language: 'en' })
    await expect.poll(() => modal.getByTestId('approval-verdict').innerText()).toBe('Needs approval')

    // Shift+A cannot save what may not be saved; D denies.
    await expect.poll(() => modal.getByTestId('approval-deny').isEnabled()).toBe(true)
    const resolvedBefore = eventsOf(temp.events, 'approval_resolved').length
    await page.keyboard.press('Shift+A')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await modal.isVisible()).toBe(true)
    expect(eventsOf(temp.events, 'approval_resolved')).toHaveLength(resolvedBefore)
    await page.keyboard.press('d')
    await modal.waitFor({ state: 'hidden' })
    const card = page.locator('[data-testid="tool-call"][data-tool="shell"]').last()
    await expect.poll(() => card.getAttribute('data-status')).toBe('denied')
    expect(existsSync(join(temp.workspace, 'reports'))).toBe(false)
  })
})

function eventsOf<T extends AgentEvent['type']>(events: AgentEvent[], type: T): Array<AgentEventOf<T>> {
  return events.filter((e): e is AgentEventOf<T> => e.type === type)
}
