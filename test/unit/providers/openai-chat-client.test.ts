/**
 * The OpenAI wire client (providers/openai-chat-client.ts) against a raw HTTP server on loopback
 * that sends exactly the bytes each case needs: streams split at awkward places, malformed events,
 * error bodies, a stream that never ends. The scripted servers (test/integration/providers.test.ts)
 * cover the well-formed paths and retries.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createModelClient, describeModelError, type ModelTurnPart, type ProviderConfig } from '../../../src/main/providers'

type Handler = (request: http.IncomingMessage, response: http.ServerResponse, body: string) => void

const servers: http.Server[] = []
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(resolve))
    })
  )
})

async function serve(handler: Handler): Promise<ProviderConfig> {
  const server = http.createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => handler(request, response, body))
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { provider: 'openai-compatible', model: 'wire-model', baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'k-123' }
}

/** Writes the pieces as separate network writes, a few ms apart, then ends the response. */
function stream(pieces: string[], gapMs = 2): Handler {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' })
    let i = 0
    const next = (): void => {
      if (i === pieces.length) return void response.end()
      response.write(pieces[i++])
      setTimeout(next, gapMs)
    }
    next()
  }
}

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`
const finish = (reason: string, usage?: Record<string, unknown>): string =>
  `data: ${JSON.stringify({ id: 'c', choices: [{ index: 0, delta: {}, finish_reason: reason }], ...(usage ? { usage } : {}) })}\n\n`

async function turn(config: ProviderConfig, signal = new AbortController().signal) {
  const parts: ModelTurnPart[] = []
  try {
    const result = await createModelClient(config).streamTurn({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 'file_list', description: 'List files', inputSchema: { type: 'object', properties: {} } }],
      maxRetries: 0,
      signal,
      onPart: (part) => parts.push(part)
    })
    return { parts, result, error: undefined }
  } catch (error) {
    return { parts, result: undefined, error }
  }
}

describe('OpenAIChatClient', () => {
  it('sends the wire request: system first, tools as functions, streamed with usage, the key as a bearer token', async () => {
    let seen: { headers: http.IncomingHttpHeaders; body: Record<string, unknown> } | undefined
    const config = await serve((request, response, body) => {
      seen = { headers: request.headers, body: JSON.parse(body) as Record<string, unknown> }
      stream([chunk({ content: 'ok' }), finish('stop'), 'data: [DONE]\n\n'])(request, response, body)
    })
    const { result } = await turn(config)
    expect(result?.finishReason).toBe('stop')
    expect(seen?.headers.authorization).toBe('Bearer k-123')
    expect(seen?.body).toMatchObject({
      model: 'wire-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' }
      ],
      tools: [{ type: 'function', function: { name: 'file_list', description: 'List files', parameters: { type: 'object', properties: {} } } }]
    })
  })

  it('reads events split anywhere (inside a line, CRLF endings, several data lines) and joins argument pieces per call', async () => {
    const events =
      chunk({ content: 'Hel' }) +
      chunk({ content: 'lo' }).replace(/\n/g, '\r\n') +
      ': a comment line\n\n' +
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'file_list', arguments: '' } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }) +
      chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'file_list', arguments: '{}' } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'th":"src/é"}' } }] }) +
      // One event's JSON spread over two data lines (joined with a newline, which JSON allows).
      'data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],\ndata: "usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17,' +
      '"prompt_tokens_details":{"cached_tokens":8},"completion_tokens_details":{"reasoning_tokens":2}}}\n\n' +
      'data: [DONE]\n\n'
    // Cut into 7-byte pieces: lines, events and a two-byte character all split across reads.
    const bytes = Buffer.from(events)
    const pieces: string[] = []
    const config = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      for (let i = 0; i < bytes.length; i += 7) response.write(bytes.subarray(i, i + 7))
      response.end()
    })
    const { parts, result, error } = await turn(config)
    expect(error).toBeUndefined()
    for (const part of parts) if (part.type === 'text-delta') pieces.push(part.text)
    expect(pieces.join('')).toBe('Hello')
    expect(parts.filter((part) => part.type === 'tool-call')).toEqual([
      { type: 'tool-call', toolCallId: 'call_a', toolName: 'file_list', input: { path: 'src/é' } },
      { type: 'tool-call', toolCallId: 'call_b', toolName: 'file_list', input: {} }
    ])
    expect(result?.usage).toEqual({ inputTokens: 12, outputTokens: 5, totalTokens: 17, cachedInputTokens: 8, reasoningTokens: 2 })
    expect(result?.finishReason).toBe('tool-calls')
    expect(result?.responseMessages).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Hello' },
          { type: 'tool-call', toolCallId: 'call_a', toolName: 'file_list', input: { path: 'src/é' } },
          { type: 'tool-call', toolCallId: 'call_b', toolName: 'file_list', input: {} }
        ]
      }
    ])
  })

  it('keeps reasoning in the assistant message and sends it back as reasoning_content', async () => {
    const bodies: Array<{ messages: unknown[] }> = []
    const config = await serve((request, response, body) => {
      bodies.push(JSON.parse(body) as { messages: unknown[] })
      stream([chunk({ reasoning_content: 'think' }), chunk({ content: 'done' }), finish('stop')])(request, response, body)
    })
    const first = await turn(config)
    expect(first.result?.responseMessages[0]).toEqual({ role: 'assistant', content: [{ type: 'reasoning', text: 'think' }, { type: 'text', text: 'done' }] })
    await createModelClient(config).streamTurn({
      system: '',
      messages: [{ role: 'user', content: 'hi' }, ...first.result!.responseMessages, { role: 'user', content: 'again' }],
      tools: [],
      maxRetries: 0,
      signal: new AbortController().signal,
      onPart: () => {}
    })
    expect(bodies[1]?.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'done', reasoning_content: 'think' },
      { role: 'user', content: 'again' }
    ])
  })

  it('says clearly that an event of the stream is not JSON (MODEL_ERROR, "could not be read"), with what came', async () => {
    const config = await serve(stream([chunk({ content: 'partial ' }), 'data: {"choices": [ oops\n\n', finish('stop')]))
    const { parts, error } = await turn(config)
    expect(parts).toEqual([{ type: 'text-delta', text: 'partial ' }])
    const described = describeModelError(error, config)
    expect(described.code).toBe('MODEL_ERROR')
    expect(described.key).toBe('errors.model.unreadable')
    expect(described.message).toBe('The model server sent a response that could not be read: an event of the stream is not JSON: {"choices": [ oops')
  })

  it('reports a stream that ends without a finish reason, and an error the server put in the stream', async () => {
    const cut = await serve(stream([chunk({ content: 'half' })]))
    expect(describeModelError((await turn(cut)).error, cut).message).toBe(
      'The model server sent a response that could not be read: the stream ended without a finish reason'
    )
    const failed = await serve(stream([`data: ${JSON.stringify({ error: { message: 'model overloaded', type: 'server_error' } })}\n\n`]))
    expect(describeModelError((await turn(failed)).error, failed)).toMatchObject({ code: 'MODEL_ERROR', message: 'The model call failed: model overloaded' })
  })

  it('turns error bodies into the status and the server message: JSON, plain text, empty', async () => {
    const json = await serve((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: 'messages: roles must alternate', type: 'invalid_request_error' } }))
    })
    expect(describeModelError((await turn(json)).error, json)).toEqual({
      code: 'MODEL_ERROR',
      message: 'The model server answered 400: messages: roles must alternate',
      key: 'errors.model.status',
      params: { status: 400, detail: 'messages: roles must alternate' }
    })
    const text = await serve((_request, response) => {
      response.writeHead(502, 'Bad Gateway', { 'content-type': 'text/html' })
      response.end('<html>upstream down</html>')
    })
    expect(describeModelError((await turn(text)).error, text).message).toBe('The model server answered 502: Bad Gateway')
    const ollama = await serve((_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: 'model "wire-model" not found, try pulling it first' }))
    })
    expect(describeModelError((await turn(ollama)).error, ollama)).toMatchObject({
      code: 'MODEL_NOT_FOUND',
      params: { detail: 'model "wire-model" not found, try pulling it first' }
    })
  })

  it('ends at once when aborted mid-stream, and the abort is described as a cancel', async () => {
    const controller = new AbortController()
    const config = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.write(chunk({ content: 'start' }))
      setTimeout(() => controller.abort(), 20)
      // …and never ends.
    })
    const started = performance.now()
    const { parts, error } = await turn(config, controller.signal)
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(parts).toEqual([{ type: 'text-delta', text: 'start' }])
    expect(describeModelError(error, config).code).toBe('CANCELLED')
  })

  it('ends the request when a part cannot be taken (the store could not write it)', async () => {
    let closed = false
    const config = await serve((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.write(chunk({ content: 'one' }))
      request.socket.on('close', () => (closed = true))
    })
    const failing = new Error('disk full')
    await expect(
      createModelClient(config).streamTurn({
        system: '',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        maxRetries: 0,
        signal: new AbortController().signal,
        onPart: () => {
          throw failing
        }
      })
    ).rejects.toBe(failing)
    await expect.poll(() => closed).toBe(true)
  })
})
