/**
 * providers.listModels and providers.testConnection against real HTTP on 127.0.0.1: the scripted
 * OpenAI and Anthropic servers, a bare Ollama that only has /api/tags, a server refusing the key,
 * a server that never answers, and a closed port.
 */
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { AppError, type AppErrorShape } from '../../../src/shared'
import { isOllamaUrl, listModels, testConnection, type ModelServer } from '../../../src/main/providers'
import { startScriptedAnthropic } from '../../fixtures/scripted-anthropic'
import { startScriptedOpenAI } from '../../fixtures/scripted-openai'
import type { ScriptedServer } from '../../fixtures/scripted-types'

const scripted: ScriptedServer[] = []
const plain: Server[] = []
afterEach(async () => {
  await Promise.all(scripted.splice(0).map((server) => server.close()))
  await Promise.all(plain.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

async function serve(handler: RequestListener): Promise<string> {
  const server = createServer(handler)
  plain.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function listError(server: ModelServer, timeoutMs?: number): Promise<AppErrorShape> {
  try {
    await listModels(server, timeoutMs === undefined ? {} : { timeoutMs })
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    return (error as AppError).toJSON()
  }
  throw new Error('expected listModels to fail')
}

describe('listModels', () => {
  it('lists an OpenAI-compatible server’s GET /models (data[].id), sorted, with the key as a bearer token', async () => {
    const server = await startScriptedOpenAI([], { models: ['qwen3:8b', 'llama3.2:3b', 'gpt-oss:20b'], apiKey: 'sk-local' })
    scripted.push(server)
    expect(await listModels({ provider: 'openai-compatible', baseUrl: server.url, apiKey: 'sk-local' })).toEqual([
      'gpt-oss:20b',
      'llama3.2:3b',
      'qwen3:8b'
    ])
    expect(server.lookups).toHaveLength(1)
    expect(server.requests).toHaveLength(0)
    expect(server.lookups[0]).toMatchObject({ method: 'GET', path: '/v1/models' })
    expect(server.lookups[0]!.headers.authorization).toBe('Bearer sk-local')
    expect(server.remaining()).toBe(0) // a list is not a model call
  })

  it('asks Ollama’s /api/tags when the server has no /models', async () => {
    const seen: string[] = []
    const origin = await serve((req, res) => {
      seen.push(`${req.method} ${req.url}`)
      res.setHeader('content-type', 'application/json')
      if (req.url === '/api/tags') {
        res.end(JSON.stringify({ models: [{ name: 'qwen3:8b', model: 'qwen3:8b' }, { name: 'llava:7b' }, { name: 42 }, { name: '' }] }))
      } else {
        res.statusCode = 404
        res.end(JSON.stringify({ error: '404 page not found' }))
      }
    })
    expect(await listModels({ provider: 'openai-compatible', baseUrl: `${origin}/v1` })).toEqual(['llava:7b', 'qwen3:8b'])
    expect(seen).toEqual(['GET /v1/models', 'GET /api/tags'])
  })

  it('knows an Ollama base URL by its port or its host name', () => {
    expect(isOllamaUrl('http://localhost:11434/v1')).toBe(true)
    expect(isOllamaUrl('http://ollama:8080/v1')).toBe(true)
    expect(isOllamaUrl('http://ollama.internal/v1')).toBe(true)
    expect(isOllamaUrl('http://127.0.0.1:1234/v1')).toBe(false)
    expect(isOllamaUrl('https://api.openai.com/v1')).toBe(false)
  })

  it('lists Anthropic’s GET /v1/models with x-api-key and anthropic-version', async () => {
    const server = await startScriptedAnthropic([], { models: ['claude-sonnet-4-5', 'claude-haiku-4-5'], apiKey: 'sk-ant' })
    scripted.push(server)
    expect(await listModels({ provider: 'anthropic', baseUrl: server.url, apiKey: 'sk-ant' })).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-5'])
    const request = server.lookups[0]!
    expect(new URL(request.path, 'http://x').pathname).toBe('/v1/models')
    expect(request.headers['x-api-key']).toBe('sk-ant')
    expect(request.headers['anthropic-version']).toBe('2023-06-01')
  })

  it('leaves out OpenAI models that cannot chat', async () => {
    const server = await startScriptedOpenAI([], { models: ['gpt-4.1-mini', 'text-embedding-3-small', 'whisper-1', 'tts-1', 'gpt-5'] })
    scripted.push(server)
    expect(await listModels({ provider: 'openai', baseUrl: server.url, apiKey: 'sk' })).toEqual(['gpt-4.1-mini', 'gpt-5'])
  })

  it('says a refused key is a refused key (401), with the server’s own words', async () => {
    const server = await startScriptedOpenAI([], { apiKey: 'sk-right' })
    scripted.push(server)
    const error = await listError({ provider: 'openai-compatible', baseUrl: server.url, apiKey: 'sk-wrong' })
    expect(error.code).toBe('MODEL_AUTH')
    expect(error.message).toContain('(401)')
    expect(error.message).toContain('Incorrect API key provided')
  })

  it('never repeats the key when the server echoes the request in its error', async () => {
    const key = 'sk-live-0123456789abcdefSECRET'
    const url = await serve((request, response) => {
      response.writeHead(401, { 'content-type': 'text/plain' })
      response.end(`bad key: ${request.headers.authorization} (${key})`)
    })
    const error = await listError({ provider: 'openai-compatible', baseUrl: url, apiKey: key })
    expect(error.code).toBe('MODEL_AUTH')
    expect(error.message).not.toContain('0123456789abcdef')
    expect(error.message).toContain('[redacted]')
  })

  it('says an unreachable port is unreachable, naming the base URL', async () => {
    const port = await closedPort()
    const error = await listError({ provider: 'openai-compatible', baseUrl: `http://127.0.0.1:${port}/v1` })
    expect(error).toEqual({
      code: 'MODEL_UNREACHABLE',
      message: `Cannot reach the model server at http://127.0.0.1:${port}/v1 (ECONNREFUSED).`,
      key: 'errors.model.refused',
      params: { url: `http://127.0.0.1:${port}/v1`, host: `127.0.0.1:${port}`, reason: 'ECONNREFUSED' }
    })
  })

  it('gives up on a server that does not answer in time', async () => {
    const origin = await serve(() => {}) // accepts, never answers
    const started = Date.now()
    const error = await listError({ provider: 'openai-compatible', baseUrl: `${origin}/v1` }, 300)
    expect(error).toEqual({
      code: 'MODEL_UNREACHABLE',
      message: `The model server at ${origin}/v1 did not answer in time.`,
      key: 'errors.model.timeout',
      params: { url: `${origin}/v1` }
    })
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it('says when the base URL points at something that is not a model server', async () => {
    const origin = await serve((_req, res) => res.end('<html>a router login page</html>'))
    const error = await listError({ provider: 'openai-compatible', baseUrl: `${origin}/v1` })
    expect(error.code).toBe('MODEL_ERROR')
    expect(error.message).toContain(`${origin}/v1/models did not answer with JSON; check the base URL`)
  })

  it('does not follow a redirect (the key stays with the server it was meant for)', async () => {
    const target = await serve((req, res) => res.end(JSON.stringify({ data: [{ id: `leaked ${req.headers.authorization}` }] })))
    const origin = await serve((_req, res) => {
      res.writeHead(302, { location: `${target}/v1/models` })
      res.end()
    })
    const error = await listError({ provider: 'openai-compatible', baseUrl: `${origin}/v1`, apiKey: 'sk-secret' })
    expect(error.code).toBe('MODEL_ERROR')
    expect(error.message).toContain(`redirects to ${target}/v1/models (302)`)
  })

  it('asks for what to set when a key or a base URL is missing, without a request', async () => {
    // The same words a run uses (createModelClient's), naming the variable to set.
    expect(await listError({ provider: 'openai', apiKeyEnv: 'MY_OPENAI_KEY' })).toEqual({
      code: 'NOT_CONFIGURED',
      message: expect.stringMatching(/^No API key for openai: .*MY_OPENAI_KEY/),
      key: 'errors.notConfigured.apiKey',
      params: { provider: 'openai', variable: 'MY_OPENAI_KEY' }
    })
    expect((await listError({ provider: 'openai-compatible', baseUrl: '' })).code).toBe('NOT_CONFIGURED')
  })
})

describe('testConnection', () => {
  it('makes one tiny real request with the configured model and reports the latency', async () => {
    const server = await startScriptedOpenAI([{ text: 'ok' }])
    scripted.push(server)
    const result = await testConnection({ provider: 'openai-compatible', baseUrl: server.url, model: 'scripted-model' })
    expect(result).toMatchObject({ ok: true, model: 'scripted-model' })
    expect(result.ok && result.latencyMs).toBeGreaterThanOrEqual(0)
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]!.path).toBe('/v1/chat/completions')
    expect(server.requests[0]!.body).toMatchObject({ model: 'scripted-model', max_tokens: 1 })
  })

  it('reports a refused key exactly as a run would (MODEL_AUTH), without retrying', async () => {
    const server = await startScriptedOpenAI([{ text: 'never' }], { apiKey: 'sk-right' })
    scripted.push(server)
    const result = await testConnection({ provider: 'openai', baseUrl: server.url, model: 'gpt-4.1-mini', apiKey: 'sk-wrong' })
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'MODEL_AUTH',
        message: expect.stringContaining('The model server rejected the API key (401): Incorrect API key provided'),
        key: 'errors.model.auth',
        params: { status: 401, detail: expect.stringContaining('Incorrect API key provided') }
      }
    })
    expect(server.requests).toHaveLength(1)
  })

  it('reports an unknown model as MODEL_NOT_FOUND naming it', async () => {
    const server = await startScriptedOpenAI([{ status: 404 }])
    scripted.push(server)
    const result = await testConnection({ provider: 'openai-compatible', baseUrl: server.url, model: 'no-such-model' })
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error.code).toBe('MODEL_NOT_FOUND')
    expect(!result.ok && result.error.message).toContain('Model "no-such-model" not found')
  })

  it('reports a closed port as MODEL_UNREACHABLE at once', async () => {
    const port = await closedPort()
    const started = Date.now()
    const result = await testConnection({ provider: 'openai-compatible', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' })
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'MODEL_UNREACHABLE',
        message: `Cannot reach the model server at http://127.0.0.1:${port}/v1 (ECONNREFUSED).`,
        key: 'errors.model.refused',
        params: { url: `http://127.0.0.1:${port}/v1`, host: `127.0.0.1:${port}`, reason: 'ECONNREFUSED' }
      }
    })
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it('says what to set when nothing is configured', async () => {
    // Without a model it lists the models instead (issue 22, item 9); without a base URL there is nothing to ask.
    const result = await testConnection({ provider: 'openai-compatible', baseUrl: '', model: '' })
    expect(result).toMatchObject({ ok: false, error: { code: 'NOT_CONFIGURED' } })
  })

  it('gives up after its timeout', async () => {
    const server = await startScriptedOpenAI([{ text: 'late', delayMs: 5_000 }])
    scripted.push(server)
    const result = await testConnection({ provider: 'openai-compatible', baseUrl: server.url, model: 'slow' }, { timeoutMs: 200 })
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'MODEL_UNREACHABLE',
        message: `The model server at ${server.url} did not answer in time.`,
        key: 'errors.model.timeout',
        params: { url: server.url }
      }
    })
  })
})
