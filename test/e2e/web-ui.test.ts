/**
 * The whole path in a real Chromium (Debian's, driven by playwright-core) against the web host:
 * the same renderer and bridge contract as the Electron app, over the WebSocket transport.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebHost, type WebHost } from '../../src/main/bridge'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptedServer } from '../fixtures/scripted-types'
import { hasChromium, openBrowser, rendererDir, screenshotDir, settled } from '../helpers/browser'
import { createTempApp, type TempApp } from '../helpers/temp-app'



const PLAN = '# Plan\n\n- build the skeleton\n- ship it\n'

describe.skipIf(!hasChromium())('web UI end to end', () => {
  let server: ScriptedServer
  let temp: TempApp
  let host: WebHost
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    server = await startScriptedOpenAI([
      // Run 1: the user allows the write.
      { text: "I'll write the plan to `notes/plan.md`.", toolCalls: [{ name: 'file_write', args: { path: 'notes/plan.md', content: PLAN } }] },
      {
        text: 'Done! The plan is in **notes/plan.md**:\n\n```bash\ncat notes/plan.md\n```\n\nIt has two items.',
        chunkDelayMs: 5
      },
      // Run 2: the user denies it.
      { toolCalls: [{ name: 'file_write', args: { path: 'denied.txt', content: 'should never exist' } }] },
      { text: 'Understood — I did not create denied.txt.' }
    ])
    temp = createTempApp(server.url)
    host = await startWebHost({ app: temp.app, rendererDir })
    ;({ browser, page } = await openBrowser())
  })

  afterAll(async () => {
    await browser?.close()
    await host?.close()
    await temp?.dispose()
    await server?.close()
  })

  it('asks before a write, runs it when allowed, shows it live, and keeps it after a reload', async () => {
    await page.goto(host.url)
    await page.getByTestId('new-conversation').click()
    await page.getByTestId('composer-input').fill('Write a short plan to notes/plan.md')
    await page.getByTestId('send-button').click()

    const modal = page.getByTestId('approval-modal')
    await modal.waitFor({ state: 'visible' })
    await expect.poll(() => modal.locator('[data-testid="approval-field"][data-label="Path"]').innerText()).toContain('notes/plan.md')
    const shownContent = await modal.locator('[data-testid="approval-field"][data-label="Content"]').innerText()
    expect(shownContent).toContain('# Plan')
    expect(shownContent).toContain('- ship it')
    expect(existsSync(join(temp.workspace, 'notes', 'plan.md'))).toBe(false) // nothing before the answer
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'approval-modal.png') })

    await page.getByTestId('approval-allow').click()
    await modal.waitFor({ state: 'hidden' })
    const call = page.locator('[data-testid="tool-call"][data-tool="file_write"]')
    await expect.poll(() => call.getAttribute('data-status')).toBe('completed')
    const answer = page.getByTestId('message-assistant').last()
    await expect.poll(() => answer.innerText()).toContain('It has two items.')
    expect(await answer.locator('pre code').count()).toBeGreaterThan(0) // Markdown code block rendered
    expect(readFileSync(join(temp.workspace, 'notes', 'plan.md'), 'utf8')).toBe(PLAN)
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'chat-tool-call.png') })

    await page.reload()
    await page.getByTestId('conversation-item').first().click()
    await expect.poll(() => page.getByTestId('message-user').first().innerText()).toContain('Write a short plan')
    await expect.poll(() => page.getByTestId('message-assistant').last().innerText()).toContain('It has two items.')
    expect(await page.locator('[data-testid="tool-call"][data-tool="file_write"]').getAttribute('data-status')).toBe('completed')
  })

  it('a denied write leaves no file and the model hears the reason', async () => {
    await page.goto(host.url) // independent of what the previous test left on screen
    await page.getByTestId('new-conversation').click()
    await page.getByTestId('composer-input').fill('Create denied.txt')
    await page.getByTestId('composer-input').press('Enter')

    const modal = page.getByTestId('approval-modal')
    await modal.waitFor({ state: 'visible' })
    await page.getByTestId('approval-deny-reason').fill('Not in this folder, please.')
    await page.getByTestId('approval-deny').click()
    await modal.waitFor({ state: 'hidden' })

    const call = page.locator('[data-testid="tool-call"][data-tool="file_write"]').last()
    await expect.poll(() => call.getAttribute('data-status')).toBe('denied')
    await expect.poll(() => page.getByTestId('message-assistant').last().innerText()).toContain('did not create denied.txt')
    expect(existsSync(join(temp.workspace, 'denied.txt'))).toBe(false)
    const toolMessage = server.requests[3]!.body.messages.find((m: { role: string }) => m.role === 'tool')
    expect(toolMessage.content).toContain('The user denied this file_write call')
    expect(toolMessage.content).toContain('Not in this folder, please.')
  })
})
