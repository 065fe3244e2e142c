/**
 * The context window a run plans with (docs/architecture.md, "Context window"): the setting, else
 * the model list's entry under each server's field, else the provider's default — and the list read
 * over real HTTP on 127.0.0.1 from servers shaped like vLLM, OpenRouter, LM Studio and Ollama.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import {
  contextWindowOf,
  DEFAULT_CONTEXT_WINDOWS,
  listedContextWindow,
  listedModelWindow,
  ollamaContextWindow
} from '../../../src/main/providers'
import { requireCapability } from '../../helpers/capability'
import { COMPACT_CONTEXT_WINDOW } from '../../../src/main/tools'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

/** A server answering each `METHOD path` from the table with JSON, 404 otherwise; records what was asked. */
async function serve(routes: Record<string, unknown>, port = 0): Promise<{ url: string; seen: string[]; bodies: string[] }> {
  const seen: string[] = []
  const bodies: string[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      const key = `${req.method} ${req.url}`
      seen.push(key)
      bodies.push(body)
      res.setHeader('content-type', 'application/json')
      if (!(key in routes)) res.statusCode = 404
      res.end(JSON.stringify(key in routes ? routes[key] : { error: 'not found' }))
    })
  })
  servers.push(server)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, bodies }
}

describe('contextWindowOf', () => {
  it('takes the setting when it is set, whatever the list says', () => {
    expect(contextWindowOf({ setting: 8192, listed: 131_072, provider: 'openai-compatible' })).toEqual({ tokens: 8192, source: 'setting' })
  })

  it('takes the model list’s window when the setting is automatic (0)', () => {
    expect(contextWindowOf({ setting: 0, listed: 32_768, provider: 'openai' })).toEqual({ tokens: 32_768, source: 'model-list' })
  })

  it('falls back to the provider’s default when the list names nothing usable', () => {
    for (const provider of ['openai', 'anthropic', 'openai-compatible'] as const) {
      for (const listed of [undefined, 0, 12, Number.NaN, 1.5]) {
        expect(contextWindowOf({ setting: 0, listed, provider })).toEqual({ tokens: DEFAULT_CONTEXT_WINDOWS[provider], source: 'default' })
      }
    }
    // An unknown server's window is planned modestly, yet above the compact-descriptions cut-off:
    // a server that names nothing gets the full descriptions, and an overflow it reports is retried.
    expect(DEFAULT_CONTEXT_WINDOWS['openai-compatible']).toBeLessThanOrEqual(32_768)
    expect(DEFAULT_CONTEXT_WINDOWS['openai-compatible']).toBeGreaterThan(COMPACT_CONTEXT_WINDOW)
  })
})

describe('listedContextWindow', () => {
  it('reads each server’s field', () => {
    expect(listedContextWindow({ id: 'm', max_model_len: 32_768 })).toBe(32_768) // vLLM
    expect(listedContextWindow({ id: 'm', context_length: 131_072 })).toBe(131_072) // OpenRouter, Together
    expect(listedContextWindow({ id: 'm', top_provider: { context_length: 65_536 } })).toBe(65_536) // OpenRouter's provider
    expect(listedContextWindow({ id: 'm', context_window: 8192 })).toBe(8192) // Groq
    expect(listedContextWindow({ id: 'm', max_input_tokens: 200_000 })).toBe(200_000) // Anthropic
    // LM Studio: what is loaded now before what the model could take.
    expect(listedContextWindow({ id: 'm', max_context_length: 131_072, loaded_context_length: 4096 })).toBe(4096)
    expect(listedContextWindow({ id: 'm', max_context_length: 131_072 })).toBe(131_072)
  })

  it('names nothing for entries without a window or with nonsense in its place', () => {
    for (const entry of [null, undefined, 'm', 42, { id: 'm' }, { id: 'm', context_length: '8192' }, { id: 'm', context_length: -1 }, { id: 'm', max_model_len: 3.5 }]) {
      expect(listedContextWindow(entry)).toBeUndefined()
    }
  })
})

describe('ollamaContextWindow', () => {
  it('takes the model’s num_ctx parameter', () => {
    expect(ollamaContextWindow({ parameters: 'stop "<|im_end|>"\nnum_ctx 16384\ntemperature 0.6', model_info: { 'qwen3.context_length': 40_960 } })).toBe(16_384)
  })

  it('without num_ctx, Ollama’s own default, never more than the model was trained for', () => {
    expect(ollamaContextWindow({ parameters: 'temperature 0.6', model_info: { 'qwen3.context_length': 40_960 } })).toBe(4096)
    expect(ollamaContextWindow({ model_info: { 'tinyllama.context_length': 2048 } })).toBe(2048)
    expect(ollamaContextWindow({ model_info: {} })).toBeUndefined()
    expect(ollamaContextWindow(null)).toBeUndefined()
  })
})

describe('listedModelWindow over HTTP', () => {
  it('finds the model’s entry in a vLLM-style /models', async () => {
    const server = await serve({ 'GET /v1/models': { data: [{ id: 'other', max_model_len: 4096 }, { id: 'qwen', max_model_len: 32_768 }] } })
    expect(await listedModelWindow({ provider: 'openai-compatible', baseUrl: `${server.url}/v1` }, 'qwen')).toBe(32_768)
    expect(server.seen).toEqual(['GET /v1/models'])
  })

  it('asks LM Studio’s own endpoint when the OpenAI-style list says nothing', async () => {
    const server = await serve({
      'GET /v1/models': { data: [{ id: 'qwen/qwen3-8b' }] },
      'GET /api/v0/models/qwen%2Fqwen3-8b': { id: 'qwen/qwen3-8b', max_context_length: 40_960, loaded_context_length: 8192 }
    })
    expect(await listedModelWindow({ provider: 'openai-compatible', baseUrl: `${server.url}/v1` }, 'qwen/qwen3-8b')).toBe(8192)
  })

  it('asks an Ollama base URL’s /api/show for the model', async () => {
    // Ollama is recognised by its port: the test server takes 11434 on 127.0.0.1 when it is free.
    const server = await serve({ 'POST /api/show': { parameters: 'num_ctx 12288', model_info: { 'llama.context_length': 131_072 } } }, 11434).catch(() => undefined)
    if (!requireCapability('port 11434', server !== undefined, 'stop the Ollama server (or whatever holds 127.0.0.1:11434) while this test runs')) return
    const window = await listedModelWindow({ provider: 'openai-compatible', baseUrl: `${server!.url}/v1` }, 'llama3.2:3b')
    expect(window).toBe(12_288)
    expect(server!.seen).toEqual(['POST /api/show'])
    expect(JSON.parse(server!.bodies[0]!)).toEqual({ model: 'llama3.2:3b' })
  })

  it('says nothing, without failing, when the server names no window, is unreachable or errs', async () => {
    const server = await serve({ 'GET /v1/models': { data: [{ id: 'm' }] } })
    expect(await listedModelWindow({ provider: 'openai-compatible', baseUrl: `${server.url}/v1` }, 'm')).toBeUndefined()
    expect(await listedModelWindow({ provider: 'openai', baseUrl: `${server.url}/v1`, apiKey: 'k' }, 'missing')).toBeUndefined()
    expect(await listedModelWindow({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' }, 'm', { timeoutMs: 2000 })).toBeUndefined()
  })
})
