/**
 * The browser tools through the web UI in Chromium (docs/tools.md, "Browser"): the questions for a
 * new site, a password (shown as ••••) and a form appear in the approval modal and are answered
 * there; the page's screenshot shows in the timeline; the password is nowhere on the UI's page.
 */
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebHost, type WebHost } from '../../src/main/bridge'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptedServer } from '../fixtures/scripted-types'
import { chromiumPath, hasChromium, openBrowser, rendererDir, screenshotDir } from '../helpers/browser'
import { createTempApp, type TempApp } from '../helpers/temp-app'
import { startTestSite, type TestSite } from '../helpers/test-site'

const PASSWORD = 'Ui-pw-9e41c0d2-never-shown'
const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] })

describe.skipIf(!hasChromium())('browser tools in the web UI', { timeout: 90_000 }, () => {
  let server: ScriptedServer
  let site: TestSite
  let temp: TempApp
  let host: WebHost
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    site = await startTestSite()
    server = await startScriptedOpenAI([
      call('browser_open', { url: `${site.url}/` }),
      call('browser_type', { target: { label: 'Username' }, text: 'alice' }),
      call('browser_type', { target: { label: 'Password' }, secret: PASSWORD }),
      call('browser_click', { target: { role: 'button', name: 'Sign in' } }),
      call('browser_screenshot', {}),
      { text: 'Signed in as alice.' }
    ])
    temp = createTempApp(server.url, { browserPath: chromiumPath, imageInput: 'on' })
    host = await startWebHost({ app: temp.app, rendererDir })
    ;({ browser, page } = await openBrowser({ colorScheme: 'light' }))
  })

  afterAll(async () => {
    await browser?.close()
    await host?.close()
    await temp?.dispose()
    await server?.close()
    await site?.close()
  })

  it('asks for the new site, the password and the form in the modal, and shows the page in the timeline', async () => {
    await page.goto(host.url)
    await page.getByTestId('new-conversation').click()
    await page.getByTestId('composer-input').fill('Sign in as alice')
    await page.getByTestId('send-button').click()

    const modal = page.getByTestId('approval-modal')
    const answer = async (title: string) => {
      await expect.poll(() => modal.locator('h2').innerText().catch(() => ''), { timeout: 20_000 }).toBe(title)
      expect(await modal.innerText()).not.toContain(PASSWORD)
      if (title === 'Type a password into the browser') {
        expect(await modal.getByTestId('approval-body').innerText()).toContain('••••')
        await page.screenshot({ path: join(screenshotDir, 'browser-password-approval.png') })
      }
      await modal.getByTestId('approval-allow').click()
    }
    await answer('Open a new site in the browser')
    await answer('Type a password into the browser')
    await answer('Send a form from the browser')

    await expect.poll(() => page.getByTestId('message-assistant').last().innerText(), { timeout: 20_000 }).toContain('Signed in as alice.')
    // The run's calls fold into one row once it ends: open it, then the screenshot's card.
    await page.getByTestId('tool-group').click()
    await page.locator('[data-testid="tool-row"][data-tool="browser_screenshot"]').click()
    const shot = page.locator('[data-testid="tool-call"][data-tool="browser_screenshot"]')
    expect(await shot.getAttribute('data-status')).toBe('completed')
    await expect.poll(() => shot.getByTestId('tool-attachment-image').count()).toBe(1)
    await page.screenshot({ path: join(screenshotDir, 'browser-screenshot-timeline.png') })
    expect(site.posts).toEqual([{ username: 'alice', password: PASSWORD, plan: 'Free' }])
    expect(await page.locator('body').innerText()).not.toContain(PASSWORD)
    expect(await page.content()).not.toContain(PASSWORD)
  })
})
