/**
 * Issue 22, item 9, in a real Chromium through the web host, in English and Chinese: Test
 * connection works without a model chosen and says what it checked (the server's model list, "1
 * model"); with a model it says the model answered; a refused port is said in words.
 */
import { createServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { hasChromium } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const TEXT = {
  en: {
    listed: /^Connected in \d+ ms: the server lists 1 model\. No model is chosen, so no reply was asked for\.$/,
    replied: /^Connected: scripted-model answered in \d+ ms\.$/,
    refused: (host: string, url: string) => `Failed. Nothing is listening on ${host}: the model server at ${url} is not running, or listens on another port`
  },
  'zh-CN': {
    listed: /^连接成功（\d+ 毫秒）：服务器列出了 1 个模型。尚未选择模型，所以没有请求回复。$/,
    replied: /^连接成功：scripted-model 在 \d+ 毫秒内作答。$/,
    refused: (host: string, url: string) => `失败。${host} 上没有程序在监听：${url} 的模型服务器没有运行，或在监听别的端口`
  }
} as const

async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}/v1`
}

describe.skipIf(!hasChromium())('Settings: Test connection', () => {
  let session: UiSession | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: without a model it lists the models; a refused port in words`, async () => {
      session = await startUiSession([{ text: 'ok' }], { language, model: '' })
      const { page, host, server } = session
      await page.goto(host.url)
      await page.getByTestId('first-run').waitFor() // no model yet: the first-run dialog, closed
      await page.keyboard.press('Escape')
      await page.getByTestId('first-run').waitFor({ state: 'hidden' })
      await page.getByTestId('settings-button').click()
      const panel = page.getByTestId('settings-panel')
      await panel.getByTestId('settings-section-tab-model').click()
      const button = panel.getByTestId('settings-test-connection')
      const result = panel.getByTestId('settings-test-result')

      // No model: the list is what it checks, and it says so.
      expect(await panel.getByTestId('settings-model').inputValue()).toBe('')
      await button.click()
      await expect.poll(() => result.getAttribute('data-checked')).toBe('models')
      expect(await result.innerText()).toMatch(TEXT[language].listed)
      expect(server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(0) // no chat request was made

      // A model: a one-token reply.
      await panel.getByTestId('settings-model').fill('scripted-model')
      await button.click()
      await expect.poll(() => result.getAttribute('data-checked')).toBe('reply')
      expect(await result.innerText()).toMatch(TEXT[language].replied)

      // A port nothing listens on.
      const url = await closedPortUrl()
      await panel.getByTestId('settings-base-url').fill(url)
      await expect.poll(() => button.isEnabled()).toBe(true)
      await button.click()
      await expect.poll(() => result.getAttribute('data-ok')).toBe('false')
      expect(await result.innerText()).toBe(TEXT[language].refused(new URL(url).host, url))
    })
  }
})
