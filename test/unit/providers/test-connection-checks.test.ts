/**
 * Issue 22, item 9: Test connection works without a model chosen — it asks for the model list,
 * which reaches the server and checks the key, and says that is what it checked and how many
 * models it saw ("1 model", "2 models": plural rules in both languages); a refused port is said
 * in words (nothing is listening on that host and port), in English and Chinese.
 */
import { createServer, type Server } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { testConnection } from '../../../src/main/providers'
import { makeTranslator } from '../../../src/renderer/src/i18n/translator'

let server: Server | undefined
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  server = undefined
})

/** An OpenAI-compatible server listing `ids`; it refuses any chat request (none should come). */
async function modelServer(ids: string[]): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = []
  server = createServer((req, res) => {
    paths.push(`${req.method} ${req.url}`)
    if (req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', data: ids.map((id) => ({ id, object: 'model' })) }))
    } else {
      res.writeHead(500)
      res.end()
    }
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}/v1`, paths }
}

async function closedPort(): Promise<number> {
  const probe = createNetServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

describe('Test connection', () => {
  it('without a model, lists the models and says so — never asks for a reply', async () => {
    for (const ids of [['llama3'], ['llama3', 'qwen2.5']]) {
      const { url, paths } = await modelServer(ids)
      const result = await testConnection({ provider: 'openai-compatible', baseUrl: url, model: '' })
      expect(result).toMatchObject({ ok: true, checked: 'models', models: ids.length, model: '' })
      expect(paths).toEqual(['GET /v1/models'])
      await new Promise<void>((resolve) => server!.close(() => resolve()))
      server = undefined
      if (!result.ok) continue
      const en = makeTranslator('en').count('settings.testModels', result.models!, { ms: 5 })
      const zh = makeTranslator('zh-CN').count('settings.testModels', result.models!, { ms: 5 })
      expect(en).toBe(`Connected in 5 ms: the server lists ${ids.length} ${ids.length === 1 ? 'model' : 'models'}. No model is chosen, so no reply was asked for.`)
      expect(zh).toBe(`连接成功（5 毫秒）：服务器列出了 ${ids.length} 个模型。尚未选择模型，所以没有请求回复。`)
    }
  })

  it('with a model, still asks for a one-token reply and says it did', async () => {
    const { url, paths } = await modelServer(['m'])
    const result = await testConnection({ provider: 'openai-compatible', baseUrl: url, model: 'm' })
    expect(result.ok).toBe(false) // this server refuses chats: what was tried is the reply
    expect(paths).toEqual(['POST /v1/chat/completions'])
  })

  it('a refused port: nothing is listening on that host and port, in both languages', async () => {
    const port = await closedPort()
    const url = `http://127.0.0.1:${port}/v1`
    for (const model of ['', 'm']) {
      const result = await testConnection({ provider: 'openai-compatible', baseUrl: url, model })
      expect(result.ok).toBe(false)
      if (result.ok) continue
      expect(result.error).toMatchObject({ code: 'MODEL_UNREACHABLE', key: 'errors.model.refused', params: { host: `127.0.0.1:${port}`, url } })
      expect(makeTranslator('en').error(result.error)).toBe(`Nothing is listening on 127.0.0.1:${port}: the model server at ${url} is not running, or listens on another port`)
      expect(makeTranslator('zh-CN').error(result.error)).toBe(`127.0.0.1:${port} 上没有程序在监听：${url} 的模型服务器没有运行，或在监听别的端口`)
    }
  })

  it('"1 model", "2 models" in the model list status, one form in Chinese', () => {
    expect(makeTranslator('en').count('settings.modelCount', 1)).toBe('1 model on the server')
    expect(makeTranslator('en').count('settings.modelCount', 2)).toBe('2 models on the server')
    expect(makeTranslator('en').count('settings.modelCount', 0)).toBe('0 models on the server')
    expect(makeTranslator('zh-CN').count('settings.modelCount', 1)).toBe('服务器上有 1 个模型')
  })
})
