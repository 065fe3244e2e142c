/**
 * Issue 22, item 10, in a real Chromium through the web host, in English and Chinese: with no model
 * server on this computer the first-run dialog does not announce "these are running" above "none
 * found"; with one it does.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { hasChromium } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const FOUND = { en: 'running on this computer', 'zh-CN': '正在运行这些模型服务' } as const
const NONE = { en: 'No Ollama or LM Studio found', 'zh-CN': '没有找到 Ollama 或 LM Studio' } as const

describe.skipIf(!hasChromium())('first-run wording', () => {
  let session: UiSession | undefined
  let ollama: Server | undefined
  afterEach(async () => {
    await session?.close()
    session = undefined
    await new Promise((resolve) => (ollama ? ollama.close(resolve) : resolve(undefined)))
    ollama = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: none found is said without "these are running"`, async () => {
      session = await startUiSession([], { model: '', language }, {
        localServers: [{ name: 'Ollama', baseUrl: 'http://127.0.0.1:9/v1', modelsUrl: 'http://127.0.0.1:9/api/tags', kind: 'ollama-tags' }]
      })
      await session.page.goto(session.host.url)
      const dialog = session.page.getByTestId('first-run')
      await dialog.getByTestId('first-run-none').waitFor()
      expect(await dialog.getByTestId('first-run-none').innerText()).toContain(NONE[language])
      expect(await dialog.innerText()).not.toContain(FOUND[language])
    })

    it(`${language}: a server found is announced`, async () => {
      ollama = createServer((_request, response) => {
        response.setHeader('content-type', 'application/json')
        response.end(JSON.stringify({ models: [{ name: 'qwen3:8b' }] }))
      })
      await new Promise<void>((resolve) => ollama!.listen(0, '127.0.0.1', resolve))
      const origin = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`
      session = await startUiSession([], { model: '', language }, {
        localServers: [{ name: 'Ollama', baseUrl: `${origin}/v1`, modelsUrl: `${origin}/api/tags`, kind: 'ollama-tags' }]
      })
      await session.page.goto(session.host.url)
      const dialog = session.page.getByTestId('first-run')
      await dialog.getByTestId('first-run-server').waitFor()
      expect(await dialog.getByTestId('first-run-body').innerText()).toContain(FOUND[language])
    })
  }
})
