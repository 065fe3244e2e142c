/**
 * The model picker in the chat header and the model part of Settings, in a real Chromium through
 * the web host, in English and Chinese: the picker lists the scripted server's models (GET
 * /v1/models), a switch by keyboard changes the model the next request carries for this
 * conversation only, a model id the server does not list can be typed, Settings shows a field error
 * for a base URL that is not one (Save disabled), and Test connection reports success against the
 * scripted server and the exact error a run would show against a closed port.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import type { Settings } from '../../src/shared'
import { openSettingsSection } from '../helpers/settings'
import { startWebHost, type WebHost } from '../../src/main/bridge'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptedServer } from '../fixtures/scripted-types'
import { hasChromium, openBrowser, rendererDir, screenshotDir, settled } from '../helpers/browser'
import { createTempApp, type TempApp } from '../helpers/temp-app'

const MODELS = ['scripted-model', 'scripted-large', 'scripted-mini']

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

const TEXT: Record<Settings['language'], { invalidUrl: string; ms: string; unreachable: (url: string) => string }> = {
  en: { invalidUrl: 'Not an http(s) URL', ms: 'ms', unreachable: (url) => `Nothing is listening on ${new URL(url).host}: the model server at ${url} is not running, or listens on another port` },
  'zh-CN': { invalidUrl: '不是 http(s) 网址', ms: '毫秒', unreachable: (url) => `${new URL(url).host} 上没有程序在监听：${url} 的模型服务器没有运行，或在监听别的端口` }
}

describe.skipIf(!hasChromium())('model picker and model settings', () => {
  let server: ScriptedServer | undefined
  let temp: TempApp | undefined
  let host: WebHost | undefined
  let browser: Browser | undefined

  afterEach(async () => {
    await browser?.close()
    await host?.close()
    await temp?.dispose()
    await server?.close()
    browser = host = temp = server = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: lists the server's models, switches this conversation's model, validates and tests settings`, async () => {
      server = await startScriptedOpenAI(
        [{ text: 'First answer, from the default model.' }, { text: 'Second answer, from the large model.' }, { text: 'ok' }],
        { models: MODELS }
      )
      temp = createTempApp(server.url, { language })
      host = await startWebHost({ app: temp.app, rendererDir })
      let page: Page
      ;({ browser, page } = await openBrowser())
      await page.emulateMedia({ colorScheme: 'light' })
      await page.goto(host.url)
      const requests = server.requests
      const modelRequests = () => requests.filter((request) => request.path === '/v1/chat/completions')

      // The picker shows the default from Settings until this conversation has its own.
      await page.getByTestId('new-conversation').click()
      const picker = page.getByTestId('model-picker')
      await expect.poll(() => picker.getAttribute('data-model')).toBe('scripted-model')
      expect(await picker.getAttribute('data-source')).toBe('settings')

      await page.getByTestId('composer-input').fill('Hello')
      await page.getByTestId('send-button').click()
      await expect.poll(() => page.getByTestId('message-assistant').last().innerText()).toContain('First answer')
      expect(modelRequests()[0]!.body.model).toBe('scripted-model')

      // Open it from the keyboard; the server's models are listed (sorted), the default first.
      await picker.focus()
      await page.keyboard.press('Enter')
      const popover = page.getByTestId('model-picker-popover')
      await popover.waitFor({ state: 'visible' })
      const options = popover.getByTestId('model-picker-option')
      await expect.poll(() => options.count()).toBe(3)
      expect(await options.evaluateAll((items) => items.map((item) => item.getAttribute('data-model')))).toEqual([
        'scripted-large',
        'scripted-mini',
        'scripted-model'
      ])
      expect(server.lookups.some((request) => request.path === '/v1/models')).toBe(true)
      expect(await popover.getByTestId('model-picker-default').getAttribute('aria-selected')).toBe('true')
      const input = page.getByTestId('model-picker-input')
      expect(await input.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)
      if (language === 'en') {
        await settled(page)
        await page.screenshot({ path: join(screenshotDir, 'model-picker-en-light.png') })
      }

      // ↓ ↓ Enter: past the default to the first listed model.
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('ArrowDown')
      expect(await page.locator('[data-testid="model-picker-option"].active').getAttribute('data-model')).toBe('scripted-large')
      await page.keyboard.press('Enter')
      await popover.waitFor({ state: 'hidden' })
      await expect.poll(() => picker.getAttribute('data-model')).toBe('scripted-large')
      expect(await picker.getAttribute('data-source')).toBe('conversation')
      expect(await picker.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true) // focus back on the button
      const conversationId = temp.app.store.listConversations()[0]!.id
      expect(temp.app.store.getConversation(conversationId)?.conversation.model).toBe('scripted-large')

      // The next request carries the conversation's model; Settings keep theirs.
      await page.getByTestId('composer-input').fill('Again, please')
      await page.getByTestId('send-button').click()
      await expect.poll(() => page.getByTestId('message-assistant').last().innerText()).toContain('Second answer')
      expect(modelRequests()[1]!.body.model).toBe('scripted-large')
      expect(temp.app.settings().model).toBe('scripted-model')

      // A model the server does not list can be typed; Esc closes without a change.
      await picker.click()
      await input.fill('my-own:7b')
      await popover.getByTestId('model-picker-custom').waitFor()
      expect(await options.count()).toBe(0)
      await page.keyboard.press('Escape')
      await popover.waitFor({ state: 'hidden' })
      expect(await picker.getAttribute('data-model')).toBe('scripted-large')
      await picker.click()
      await input.fill('my-own:7b')
      await page.keyboard.press('Enter')
      await expect.poll(() => picker.getAttribute('data-model')).toBe('my-own:7b')
      // And back to the default from Settings.
      await picker.click()
      await popover.getByTestId('model-picker-default').click()
      await expect.poll(() => picker.getAttribute('data-source')).toBe('settings')
      expect(await picker.getAttribute('data-model')).toBe('scripted-model')
      expect(temp.app.store.getConversation(conversationId)?.conversation.model).toBeUndefined()

      // Settings: a base URL that is not one is an error at its field, and Save is disabled.
      await page.getByTestId('settings-button').click()
      await openSettingsSection(page, 'model')
      const baseUrl = page.getByTestId('settings-base-url')
      await baseUrl.fill('not a url')
      const fieldError = page.locator('[data-testid="settings-field-error"][data-field="baseUrl"]')
      await fieldError.waitFor({ state: 'visible' })
      expect(await fieldError.innerText()).toContain(TEXT[language].invalidUrl)
      expect(await baseUrl.getAttribute('aria-invalid')).toBe('true')
      expect(await page.getByTestId('settings-save').isDisabled()).toBe(true)
      expect(await page.getByTestId('settings-test-connection').isDisabled()).toBe(true)
      expect(await page.getByTestId('settings-saved').count()).toBe(0)
      await baseUrl.fill(server.url)
      await fieldError.waitFor({ state: 'detached' })
      expect(await page.getByTestId('settings-save').isDisabled()).toBe(false)

      // The model field is a combobox filled from the server's list.
      await page.getByTestId('settings-model-toggle').click()
      const settingsOptions = page.getByTestId('settings-model-option')
      await expect.poll(() => settingsOptions.count()).toBe(3)
      await page.locator('[data-testid="settings-model-option"][data-model="scripted-mini"]').click()
      expect(await page.getByTestId('settings-model').inputValue()).toBe('scripted-mini')

      // Test connection: a one-token request with the model the form shows, and its latency.
      await page.getByTestId('settings-test-connection').click()
      const result = page.getByTestId('settings-test-result')
      await expect.poll(() => result.getAttribute('data-ok')).toBe('true')
      expect(await result.innerText()).toContain('scripted-mini')
      expect(await result.innerText()).toContain(TEXT[language].ms)
      expect(modelRequests().at(-1)!.body).toMatchObject({ model: 'scripted-mini', max_tokens: 1 })

      // Against a closed port: the exact error a run would show, translated (docs/architecture.md, "Texts from main").
      const port = await closedPort()
      await baseUrl.fill(`http://127.0.0.1:${port}/v1`)
      await expect.poll(() => result.count()).toBe(0) // a result about other values is not shown
      await page.getByTestId('settings-test-connection').click()
      await expect.poll(() => result.getAttribute('data-ok')).toBe('false')
      const failure = await result.innerText()
      expect(failure).toContain(TEXT[language].unreachable(`http://127.0.0.1:${port}/v1`))
      expect(temp.app.settings().baseUrl).toBe(server.url) // nothing was saved
    })
  }
})
