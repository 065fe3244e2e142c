/**
 * The provider layer against real HTTP: each kind's model client (the OpenAI wire format spoken
 * directly for openai-compatible, the AI SDK's providers for openai and anthropic), as the agent
 * loop uses it, talking to scripted OpenAI and Anthropic servers on 127.0.0.1.
 */
import type { ModelMessage } from 'ai'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppErrorShape } from '../../src/shared'
import {
  createModelClient,
  describeModelError,
  MODEL_MAX_RETRIES,
  type ModelTool,
  type ModelTurnResult,
  type ProviderConfig
} from '../../src/main/providers'
import { startScriptedAnthropic } from '../fixtures/scripted-anthropic'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer, ScriptedServerOptions } from '../fixtures/scripted-types'

const tools: ModelTool[] = [
  {
    name: 'read_file',
    description: 'Read a text file in the workspace',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false }
  },
  {
    name: 'list_dir',
    description: 'List a directory in the workspace',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, hidden: { type: 'boolean' } },
      required: ['path'],
      additionalProperties: false
    }
  }
]

interface Harness {
  provider: ProviderConfig['provider']
  start(script: ScriptStep[], options?: ScriptedServerOptions): Promise<ScriptedServer>
  /** The tool result text carried by a recorded request body for this call id, if any. */
  toolResultIn(body: any, toolCallId: string): unknown
}

const harnesses: Harness[] = [
  {
    provider: 'openai',
    start: startScriptedOpenAI,
    toolResultIn: (body, id) =>
      body.messages.find((m: { role: string; tool_call_id?: string }) => m.role === 'tool' && m.tool_call_id === id)
        ?.content
  },
  {
    provider: 'openai-compatible',
    start: startScriptedOpenAI,
    toolResultIn: (body, id) =>
      body.messages.find((m: { role: string; tool_call_id?: string }) => m.role === 'tool' && m.tool_call_id === id)
        ?.content
  },
  {
    provider: 'anthropic',
    start: startScriptedAnthropic,
    toolResultIn: (body, id) => {
      for (const message of body.messages) {
        if (message.role !== 'user' || !Array.isArray(message.content)) continue
        const block = message.content.find(
          (b: { type: string; tool_use_id?: string }) => b.type === 'tool_result' && b.tool_use_id === id
        )
        if (block) return block.content
      }
      return undefined
    }
  }
]

const open: ScriptedServer[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()))
})

interface Collected {
  text: string
  textDeltas: number
  toolCalls: Array<{ toolCallId: string; toolName: string; input: unknown }>
  /** Whatever the turn threw (a failed request, a broken stream, an abort). */
  errors: unknown[]
  usage?: ModelTurnResult['usage']
  finishReason?: string
  responseMessages: ModelMessage[]
}

/** One turn through the config's model client, its parts collected. */
async function turn(config: ProviderConfig, options: { messages?: ModelMessage[]; abortSignal?: AbortSignal } = {}): Promise<Collected> {
  const out: Collected = { text: '', textDeltas: 0, toolCalls: [], errors: [], responseMessages: [] }
  try {
    const result = await createModelClient(config).streamTurn({
      system: '',
      messages: options.messages ?? [{ role: 'user', content: 'Hello' }],
      tools,
      maxRetries: MODEL_MAX_RETRIES,
      maxOutputTokens: 1024,
      signal: options.abortSignal ?? new AbortController().signal,
      onPart(part) {
        if (part.type === 'text-delta') {
          out.text += part.text
          out.textDeltas++
        } else out.toolCalls.push(part)
      }
    })
    out.usage = result.usage
    out.finishReason = result.finishReason
    out.responseMessages = result.responseMessages
  } catch (error) {
    out.errors.push(error)
  }
  return out
}

function expectOneLine(shape: AppErrorShape): void {
  expect(shape.message).not.toMatch(/\n/)
  expect(shape.message).not.toMatch(/\bat .+:\d+:\d+/) // no stack frames
}

describe.each(harnesses)('$provider provider', (harness) => {
  const start = async (script: ScriptStep[], options?: ScriptedServerOptions): Promise<ScriptedServer> => {
    const server = await harness.start(script, options)
    open.push(server)
    return server
  }
  const configFor = (server: ScriptedServer, overrides: Partial<ProviderConfig> = {}): ProviderConfig => ({
    provider: harness.provider,
    model: 'scripted-model',
    baseUrl: server.url,
    apiKey: 'test-key',
    ...overrides
  })

  it('streams text as several deltas', async () => {
    const server = await start([{ text: 'The quick brown fox jumps.' }])
    const result = await turn(configFor(server))
    expect(result.errors).toEqual([])
    expect(result.text).toBe('The quick brown fox jumps.')
    expect(result.textDeltas).toBeGreaterThan(3)
    expect(result.finishReason).toBe('stop')
    expect(server.requests[0]?.body.stream).toBe(true)
  })

  it('delivers a tool call whose arguments were split across chunks, parsed', async () => {
    // Paced, so the pieces arrive in separate reads: pieces of one read are joined before the SDK (coalesced-arguments.ts).
    const server = await start([{ toolCalls: [{ name: 'read_file', args: { path: 'notes/todo.md' }, id: 'call_split' }], chunkDelayMs: 5 }])
    const result = await turn(configFor(server))
    expect(result.errors).toEqual([])
    expect(result.toolCalls).toHaveLength(1)
    expect(result.toolCalls[0]).toMatchObject({
      toolCallId: 'call_split',
      toolName: 'read_file',
      input: { path: 'notes/todo.md' }
    })
    expect(result.finishReason).toBe('tool-calls')
    // The tools were declared to the server.
    expect(JSON.stringify(server.requests[0]?.body.tools)).toContain('read_file')
  })

  it('delivers two parallel tool calls with text before them', async () => {
    const server = await start([
      {
        text: 'Looking at both.',
        toolCalls: [
          { name: 'read_file', args: { path: 'a.txt' } },
          { name: 'list_dir', args: { path: 'src', hidden: true } }
        ]
      }
    ])
    const result = await turn(configFor(server))
    expect(result.errors).toEqual([])
    expect(result.text).toBe('Looking at both.')
    expect(result.toolCalls.map((c) => [c.toolName, c.input])).toEqual([
      ['read_file', { path: 'a.txt' }],
      ['list_dir', { path: 'src', hidden: true }]
    ])
    expect(new Set(result.toolCalls.map((c) => c.toolCallId)).size).toBe(2)
  })

  it('passes a tool call with malformed JSON arguments on as their text instead of failing the stream', async () => {
    const server = await start([{ toolCalls: [{ name: 'read_file', args: '{"path": "a.t', id: 'call_bad' }] }])
    const result = await turn(configFor(server))
    expect(result.errors).toEqual([])
    expect(result.toolCalls).toHaveLength(1)
    expect(result.toolCalls[0]).toMatchObject({ toolCallId: 'call_bad', input: '{"path": "a.t' })
  })

  it('reports token usage', async () => {
    const server = await start([{ text: 'Counted.' }])
    const result = await turn(configFor(server))
    expect(result.usage?.inputTokens).toBeGreaterThan(0)
    expect(result.usage?.outputTokens).toBeGreaterThan(0)
    expect(result.usage?.totalTokens).toBe((result.usage?.inputTokens ?? 0) + (result.usage?.outputTokens ?? 0))
  })

  it('sends the tool result back in the next request', async () => {
    const server = await start([
      { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' }, id: 'call_rt' }] },
      { text: 'The file says hello.' }
    ])
    const config = configFor(server)
    const messages: ModelMessage[] = [{ role: 'user', content: 'What is in a.txt?' }]
    const firstResult = await turn(config, { messages })
    const call = firstResult.toolCalls[0]
    expect(call?.toolCallId).toBe('call_rt')
    messages.push(...firstResult.responseMessages)
    messages.push({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'call_rt', toolName: 'read_file', output: { type: 'text', value: 'hello world' } }
      ]
    })

    const second = await turn(config, { messages })
    expect(second.text).toBe('The file says hello.')
    const body = server.requests[1]?.body
    expect(JSON.stringify(harness.toolResultIn(body, 'call_rt'))).toContain('hello world')
    expect(JSON.stringify(body.messages)).toContain('a.txt') // the assistant's call is replayed too
  })

  it('ends the stream promptly when the abort signal fires mid-stream', async () => {
    const controller = new AbortController()
    const server = await start([
      () => {
        setTimeout(() => controller.abort(), 20)
        return { hang: true }
      }
    ])
    const result = await turn(configFor(server), { abortSignal: controller.signal })
    expect(describeModelError(result.errors[0], configFor(server)).code).toBe('CANCELLED')
    expect(server.requests).toHaveLength(1) // an abort is never retried
  })

  it('cancels during the retry wait, not after it', async () => {
    const controller = new AbortController()
    const server = await start([
      () => {
        setTimeout(() => controller.abort(), 20)
        return { status: 503, headers: { 'retry-after-ms': '30000' } }
      },
      { text: 'never reached' }
    ])
    const result = await turn(configFor(server), { abortSignal: controller.signal })
    expect(result.errors.length).toBe(1)
    expect(server.requests).toHaveLength(1)
    expect(server.remaining()).toBe(1)
  })

  it('retries 503 twice, then succeeds', async () => {
    const server = await start([{ status: 503 }, { status: 503 }, { text: 'Third time lucky.' }])
    const result = await turn(configFor(server))
    expect(result.errors).toEqual([])
    expect(result.text).toBe('Third time lucky.')
    expect(server.requests).toHaveLength(3)
  })

  it('retries 429, then succeeds', async () => {
    const server = await start([{ status: 429 }, { text: 'After the limit.' }])
    const result = await turn(configFor(server))
    expect(result.errors).toEqual([])
    expect(result.text).toBe('After the limit.')
    expect(server.requests).toHaveLength(2)
  })

  it('gives up on 429 after MODEL_MAX_RETRIES retries with MODEL_RATE_LIMITED', async () => {
    const server = await start(Array.from({ length: MODEL_MAX_RETRIES + 1 }, () => ({ status: 429 })))
    const config = configFor(server)
    const result = await turn(config)
    expect(server.requests).toHaveLength(MODEL_MAX_RETRIES + 1)
    expect(result.errors).toHaveLength(1)
    const described = describeModelError(result.errors[0], config)
    expect(described.code).toBe('MODEL_RATE_LIMITED')
    expect(described.message).toContain('429')
    expectOneLine(described)
  })

  it('describes a rejected API key as MODEL_AUTH, without retrying', async () => {
    const server = await start([{ text: 'unused' }], { apiKey: 'right-key' })
    const config = configFor(server, { apiKey: 'wrong-key' })
    const result = await turn(config)
    expect(server.requests).toHaveLength(1)
    expect(server.remaining()).toBe(1) // rejected before it reached the script
    const described = describeModelError(result.errors[0], config)
    expect(described.code).toBe('MODEL_AUTH')
    expect(described.message).toMatch(/^The model server rejected the API key \(401\)/)
    expectOneLine(described)
  })

  it('accepts the right API key', async () => {
    const server = await start([{ text: 'Welcome.' }], { apiKey: 'right-key' })
    const result = await turn(configFor(server, { apiKey: 'right-key' }))
    expect(result.errors).toEqual([])
    expect(result.text).toBe('Welcome.')
  })

  it('describes an unknown model as MODEL_NOT_FOUND naming the model', async () => {
    const server = await start([{ status: 404 }])
    const config = configFor(server, { model: 'gpt-nonexistent' })
    const result = await turn(config)
    const described = describeModelError(result.errors[0], config)
    expect(described.code).toBe('MODEL_NOT_FOUND')
    expect(described.message).toContain('gpt-nonexistent')
    expectOneLine(described)
  })

  it('describes a 400 as MODEL_ERROR with the server message', async () => {
    const server = await start([{ status: 400, errorBody: errorBodyFor(harness.provider, 'messages: roles must alternate') }])
    const config = configFor(server)
    const result = await turn(config)
    expect(server.requests).toHaveLength(1)
    const described = describeModelError(result.errors[0], config)
    expect(described).toEqual({
      code: 'MODEL_ERROR',
      message: 'The model server answered 400: messages: roles must alternate',
      key: 'errors.model.status',
      params: { status: 400, detail: 'messages: roles must alternate' }
    })
  })

  it('describes a closed port as MODEL_UNREACHABLE at once', async () => {
    const closed = await harness.start([])
    await closed.close()
    const config = configFor(closed)
    const result = await turn(config)
    const described = describeModelError(result.errors[0], config)
    expect(described.code).toBe('MODEL_UNREACHABLE')
    expect(described.message).toBe(`Cannot reach the model server at ${closed.url} (ECONNREFUSED).`)
    expectOneLine(described)
  })

  it('throws when the connection drops mid-stream, described as MODEL_UNREACHABLE', async () => {
    // Enough frames for text to have started on every provider, so no provider retries it.
    const server = await start([{ text: 'Partial answer that never ends', disconnectAfter: 5 }, { text: 'unused' }])
    const config = configFor(server)
    const result = await turn(config)
    expect(result.textDeltas).toBeGreaterThan(0)
    expect(result.errors).toHaveLength(1)
    expect(server.requests).toHaveLength(1)
    const described = describeModelError(result.errors[0], config)
    expect(described).toEqual({
      code: 'MODEL_UNREACHABLE',
      message: `Lost the connection to the model server at ${server.url} (UND_ERR_SOCKET).`,
      key: 'errors.model.connectionLost',
      params: { url: server.url, reason: 'UND_ERR_SOCKET' }
    })
  })

  // @ai-sdk/openai reads ahead to the first output chunk inside the retried call; the others do not.
  const retriesEarlyDrop = harness.provider === 'openai'
  it(`${retriesEarlyDrop ? 'retries' : 'does not retry'} a stream that drops before any output`, async () => {
    const server = await start([{ text: 'lost', disconnectAfter: 1 }, { text: 'Recovered.' }])
    const config = configFor(server)
    const result = await turn(config)
    if (retriesEarlyDrop) {
      expect(result.errors).toEqual([])
      expect(result.text).toBe('Recovered.')
      expect(server.requests).toHaveLength(2)
    } else {
      expect(describeModelError(result.errors[0], config).code).toBe('MODEL_UNREACHABLE')
      expect(server.requests).toHaveLength(1)
    }
  })

  it('answers 500 "no step left" when the script is exhausted', async () => {
    const server = await start([])
    const config = configFor(server)
    const result = await turn(config)
    const described = describeModelError(result.errors[0], config)
    expect(described.code).toBe('MODEL_ERROR')
    expect(described.message).toContain('scripted server: no step left')
    expect(server.requests).toHaveLength(MODEL_MAX_RETRIES + 1)
  })
})

describe('scripted servers', () => {
  it.each([
    ['openai', startScriptedOpenAI],
    ['anthropic', startScriptedAnthropic]
  ] as const)('%s lists models on GET /v1/models', async (_name, startServer) => {
    const server = await startServer([], { models: ['alpha', 'beta'] })
    open.push(server)
    const response = await fetch(`${server.url}/models`)
    const body = (await response.json()) as { data: Array<{ id: string }> }
    expect(body.data.map((m) => m.id)).toEqual(['alpha', 'beta'])
    expect(server.remaining()).toBe(0)
    expect(server.lookups[0]?.path).toBe('/v1/models')
  })

  it('closes while a stream hangs', async () => {
    const server = await startScriptedOpenAI([{ hang: true }])
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [] })
    })
    if (!response.body) throw new Error('expected a streamed body')
    const reader = response.body.getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toContain('"role":"assistant"')
    await server.close()
    await expect(reader.read()).rejects.toThrow()
  })
})

function errorBodyFor(provider: ProviderConfig['provider'], message: string): unknown {
  return provider === 'anthropic'
    ? { type: 'error', error: { type: 'invalid_request_error', message } }
    : { error: { message, type: 'invalid_request_error', param: null, code: null } }
}
