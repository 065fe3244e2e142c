/**
 * The web tools in a real Chromium against the web host (docs/tools.md, docs/risk.md "Network"):
 * web_fetch of a loopback page asks with its findings (a loopback address, a site not yet allowed)
 * and shows the page as Markdown in its card; http_request asks with the Authorization header
 * masked, and the secret never reaches the page; a domain rule added in Settings → Web lets the
 * next fetch run without a question.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AgentEvent, AgentEventOf } from '../../src/shared'
import { hasChromium, screenshotDir } from '../helpers/browser'
import { openToolCard } from '../helpers/tool-card'
import { openSettingsSection } from '../helpers/settings'
import { startUiSession, type UiSession } from '../helpers/ui-session'
import { ARTICLE, startTestSite, type TestSite } from '../helpers/web-site'

const SECRET = 'ghp_e2eSecretToken4242424242'
const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is AgentEventOf<T> => e.type === type)

async function send(page: Page, text: string) {
  await page.getByTestId('new-conversation').click()
  await page.getByTestId('composer-input').fill(text)
  await page.getByTestId('send-button').click()
}

describe.skipIf(!hasChromium())('web tools in the web UI', () => {
  let site: TestSite
  let session: UiSession
  let page: Page

  beforeAll(async () => {
    site = await startTestSite({
      '/notes': () => ({ body: ARTICLE }),
      '/api': (req) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: req.headers.authorization }) })
    })
    const fetchNotes = { toolCalls: [{ name: 'web_fetch', args: { url: `${site.url}/notes` } }] }
    session = await startUiSession([
      fetchNotes,
      { text: 'Read the notes.' },
      { toolCalls: [{ name: 'http_request', args: { url: `${site.url}/api`, method: 'POST', headers: { Authorization: `Bearer ${SECRET}` }, body: '{}' } }] },
      { text: 'Posted.' },
      fetchNotes,
      { text: 'Read them again.' }
    ])
    page = session.page
    await page.goto(session.host.url)
  })

  afterAll(async () => {
    await session?.close()
    await site?.close()
  })

  it('web_fetch of a loopback page asks with its findings, then shows the page as Markdown', async () => {
    await send(page, 'Read the field notes')
    const modal = page.getByTestId('approval-modal')
    await modal.waitFor({ state: 'visible' })
    expect(await modal.locator('[data-testid="finding"][data-rule="url.private-address"]').count()).toBe(1)
    expect(await modal.locator('[data-testid="finding"][data-rule="url.new-domain"]').count()).toBe(1)
    expect(await modal.innerText()).toContain(`${site.url}/notes`)
    await page.screenshot({ path: join(screenshotDir, 'web-fetch-approval.png') })
    await modal.getByTestId('approval-allow').click()
    await modal.waitFor({ state: 'hidden' })
    const card = page.locator('[data-testid="tool-call"][data-tool="web_fetch"]').last()
    await expect.poll(() => card.getAttribute('data-status')).toBe('completed')
    // Finished: one line until opened (issue 22, item 8).
    await openToolCard(card)
    expect(await card.getByTestId('tool-result-line').getAttribute('data-key')).toBe('result.fetched')
    const output = await card.getByTestId('tool-call-output').innerText()
    expect(output).toContain('## Readings')
    expect(output).not.toContain('<article>')
    // The page is kept folded: a bounded scroll box in the card, and the card folds to its header.
    const box = await card.getByTestId('tool-call-output').evaluate((el) => ({ height: el.clientHeight, content: el.scrollHeight }))
    expect(box.height).toBeLessThanOrEqual(282)
    expect(box.content).toBeGreaterThan(box.height)
    await card.locator('.tool-call-header').click()
    expect(await card.getByTestId('tool-call-output').count()).toBe(0)
    await card.locator('.tool-call-header').click()
    await expect.poll(() => page.getByTestId('message-assistant').last().innerText()).toContain('Read the notes.')
  })

  it('http_request asks with the Authorization header masked; the secret never reaches the page', async () => {
    await send(page, 'Post to the API')
    const modal = page.getByTestId('approval-modal')
    await modal.waitFor({ state: 'visible' })
    expect(await modal.locator('[data-testid="finding"][data-rule="tool.network_write"]').count()).toBe(1)
    expect(await modal.innerText()).toContain('Authorization: Bearer [redacted]')
    expect(await page.content()).not.toContain(SECRET)
    await page.screenshot({ path: join(screenshotDir, 'http-request-approval.png') })
    await modal.getByTestId('approval-allow').click()
    await modal.waitFor({ state: 'hidden' })
    const card = page.locator('[data-testid="tool-call"][data-tool="http_request"]').last()
    await expect.poll(() => card.getAttribute('data-status')).toBe('completed')
    await openToolCard(card)
    expect(await card.getByTestId('tool-call-output').innerText()).toContain('"auth":"[redacted]"')
    expect(site.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`)
    expect(await page.content()).not.toContain(SECRET)
  })

  it('a rule added in Settings → Web lets the next fetch of that host run without asking', async () => {
    await page.getByTestId('settings-button').click()
    await openSettingsSection(page, 'web')
    const section = page.getByTestId('web-section')
    await section.waitFor({ state: 'visible' })
    expect(await section.getByTestId('web-rules-none').count()).toBe(1)
    await section.getByTestId('web-rule-pattern').fill('not a host!')
    await section.getByTestId('web-rule-add').click()
    expect(await section.getByTestId('web-error').innerText()).toContain('is not a site')
    await section.getByTestId('web-rule-pattern').fill('127.0.0.1')
    await section.getByTestId('web-rule-decision').selectOption('allow')
    await section.getByTestId('web-rule-add').click()
    await section.getByTestId('web-save').click()
    await section.getByTestId('web-saved').waitFor()
    expect(session.temp.app.settings().webDomains).toEqual([{ pattern: '127.0.0.1', decision: 'allow' }])
    await section.screenshot({ path: join(screenshotDir, 'web-settings.png') })
    await page.keyboard.press('Escape')
    await page.getByTestId('settings-panel').waitFor({ state: 'hidden' })

    const asked = of(session.temp.events, 'approval_requested').length
    await send(page, 'Read the notes again')
    await expect.poll(() => page.getByTestId('message-assistant').last().innerText()).toContain('Read them again.')
    expect(of(session.temp.events, 'approval_requested')).toHaveLength(asked)
    const card = page.locator('[data-testid="tool-call"][data-tool="web_fetch"]').last()
    expect(await card.getAttribute('data-status')).toBe('completed')

    // In Simplified Chinese: the tool's own result line.
    session.temp.app.updateSettings({ language: 'zh-CN' })
    await page.reload()
    const again = page.locator('[data-testid="tool-call"][data-tool="web_fetch"]').last()
    await expect.poll(() => again.getByTestId('tool-header-result').innerText()).toMatch(/^已获取 http:\/\/127\.0\.0\.1:\d+\/notes（200）：\d+ 个字符的 Markdown。$/)
  })
})
