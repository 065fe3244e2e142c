import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ContextWindows, LISTED_WINDOW_TTL_MS } from '../../../src/main/app/context-windows'
import type { ProviderConfig } from '../../../src/main/providers'

const servers: http.Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
})

/** A vLLM-like server: its model list names each model's window (max_model_len); counts the requests. */
async function vllm(windows: Record<string, number>): Promise<{ baseUrl: string; asked: string[] }> {
  const asked: string[] = []
  const server = http.createServer((req, res) => {
    asked.push(`${req.method} ${req.url}`)
    res.setHeader('content-type', 'application/json')
    if (req.url === '/v1/models') res.end(JSON.stringify({ object: 'list', data: Object.entries(windows).map(([id, max_model_len]) => ({ id, max_model_len })) }))
    else {
      res.statusCode = 404
      res.end('{}')
    }
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, asked }
}

const config = (baseUrl: string, model: string): ProviderConfig => ({ provider: 'openai-compatible', baseUrl, model, apiKey: undefined, apiKeyEnv: 'DESKCLAW_API_KEY' })

describe('ContextWindows', () => {
  it('asks the server once per model and keeps the answer a few minutes', async () => {
    const server = await vllm({ small: 8192, large: 131_072 })
    let now = 1_000_000
    const windows = new ContextWindows(() => now)
    expect(await windows.of(config(server.baseUrl, 'small'), 0)).toEqual({ tokens: 8192, source: 'model-list' })
    expect(await windows.of(config(server.baseUrl, 'small'), 0)).toEqual({ tokens: 8192, source: 'model-list' })
    expect(await windows.of(config(server.baseUrl, 'large'), 0)).toEqual({ tokens: 131_072, source: 'model-list' })
    expect(server.asked).toEqual(['GET /v1/models', 'GET /v1/models'])
    now += LISTED_WINDOW_TTL_MS + 1
    await windows.of(config(server.baseUrl, 'small'), 0)
    expect(server.asked).toHaveLength(3)
  })

  it('takes the setting without asking, and the provider default when the server cannot say', async () => {
    const server = await vllm({})
    const windows = new ContextWindows()
    expect(await windows.of(config(server.baseUrl, 'small'), 16_000)).toEqual({ tokens: 16_000, source: 'setting' })
    expect(server.asked).toEqual([])
    // Listed without a window: the default (then LM Studio's own endpoint was tried too).
    expect(await windows.of(config(server.baseUrl, 'unlisted'), 0)).toMatchObject({ source: 'default' })
    expect(await windows.of(config('http://127.0.0.1:9/v1', 'any'), 0)).toMatchObject({ source: 'default' })
  })

  it('asks only after the caller’s turn, so a run shows its start first', async () => {
    const server = await vllm({ small: 8192 })
    const fetchSpy = vi.spyOn(globalThis, 'fetch') // observes the real fetch, which still answers
    try {
      const window = new ContextWindows().of(config(server.baseUrl, 'small'), 0)
      await Promise.resolve() // microtasks (the run's own first steps) come before the question
      expect(fetchSpy).not.toHaveBeenCalled()
      expect(await window).toEqual({ tokens: 8192, source: 'model-list' })
      expect(fetchSpy).toHaveBeenCalledTimes(1)
    } finally {
      fetchSpy.mockRestore()
    }
  })
})
