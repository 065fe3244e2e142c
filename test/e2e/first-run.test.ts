/**
 * First run: with no model configured, DeskClaw offers the model servers running on this machine
 * (here a fake Ollama on loopback) and one click configures it; without any, it points to Settings.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

describe.skipIf(!hasChromium())('first-run setup', () => {
  let session: UiSession | undefined
  let ollama: Server | undefined
  afterAll(async () => {
    await session?.close()
    await new Promise((resolve) => (ollama ? ollama.close(resolve) : resolve(undefined)))
  })

  it('offers a local Ollama with its models, and one click configures it', async () => {
    ollama = createServer((request, response) => {
      response.setHeader('content-type', 'application/json')
      response.end(request.url === '/api/tags' ? JSON.stringify({ models: [{ name: 'qwen3:8b' }, { name: 'llama3.2:3b' }] }) : '{}')
    })
    await new Promise<void>((resolve) => ollama!.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`
    session = await startUiSession([], { model: '' }, {
      localServers: [
        { name: 'Ollama', baseUrl: `${origin}/v1`, modelsUrl: `${origin}/api/tags`, kind: 'ollama-tags' },
        { name: 'LM Studio', baseUrl: 'http://127.0.0.1:9/v1', modelsUrl: 'http://127.0.0.1:9/v1/models', kind: 'openai-models' }
      ]
    })
    const { page, host, temp } = session
    await page.goto(host.url)
    const dialog = page.getByTestId('first-run')
    await dialog.waitFor({ state: 'visible' })
    const servers = dialog.getByTestId('first-run-server')
    await servers.first().waitFor()
    expect(await servers.count()).toBe(1)
    expect(await servers.first().getAttribute('data-name')).toBe('Ollama')
    await dialog.getByTestId('first-run-model').selectOption('llama3.2:3b')
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'first-run.png') })
    await dialog.getByTestId('first-run-use').click()
    await dialog.waitFor({ state: 'hidden' })
    expect(temp.app.settings()).toMatchObject({ provider: 'openai-compatible', baseUrl: `${origin}/v1`, model: 'llama3.2:3b' })
  })
})
