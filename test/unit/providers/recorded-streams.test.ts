/**
 * Stream shapes real OpenAI-compatible servers send (issue 37, item 5), kept byte for byte in
 * test/fixtures/streams/ and replayed to the OpenAI wire client over loopback: whole, and cut into
 * tiny writes that split lines, events and UTF-8 characters.
 */
import { readFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createModelClient, describeModelError, type ModelTurnPart, type ProviderConfig } from '../../../src/main/providers'

const STREAMS = join(process.cwd(), 'test', 'fixtures', 'streams')
const servers: http.Server[] = []
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(resolve))
    })
  )
})

/** Serves the recorded bytes, `size` bytes per network write (0: all at once). */
async function replay(file: string, size: number): Promise<ProviderConfig> {
  const bytes = readFileSync(join(STREAMS, file))
  const server = http.createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      if (size === 0) return void response.end(bytes)
      let at = 0
      const next = (): void => {
        if (at >= bytes.length) return void response.end()
        response.write(bytes.subarray(at, (at += size)))
        setImmediate(next)
      }
      next()
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { provider: 'openai-compatible', model: 'm', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` }
}

async function turn(config: ProviderConfig) {
  const parts: ModelTurnPart[] = []
  try {
    const result = await createModelClient(config).streamTurn({
      system: '',
      messages: [{ role: 'user', content: 'go' }],
      tools: [{ name: 'file_write', description: 'Write', inputSchema: { type: 'object', properties: {} } }],
      maxRetries: 0,
      signal: new AbortController().signal,
      onPart: (part) => parts.push(part)
    })
    return { parts, result, error: undefined, text: textOf(parts), calls: parts.filter((p) => p.type === 'tool-call') }
  } catch (error) {
    return { parts, result: undefined, error, text: textOf(parts), calls: parts.filter((p) => p.type === 'tool-call') }
  }
}

const textOf = (parts: ModelTurnPart[]): string => parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('')

const call = (toolCallId: string, toolName: string, input: unknown) => ({ type: 'tool-call', toolCallId, toolName, input })

describe.each([0, 1, 3, 7])('recorded streams, %i bytes per write (0: whole)', (size) => {
  it('parallel tool calls at one index with distinct ids stay separate calls (Ollama)', async () => {
    const { calls, text, result, error } = await turn(await replay('ollama-parallel-same-index.sse', size))
    expect(error).toBeUndefined()
    expect(text).toBe('我来写两个文件。')
    expect(calls).toEqual([call('call_k3v9q1ab', 'file_write', { path: 'a.txt', content: '第一' }), call('call_p8x2m7cd', 'file_write', { path: 'b.txt', content: 'second' })])
    expect(result?.finishReason).toBe('tool-calls')
    expect(result?.usage).toMatchObject({ inputTokens: 210, outputTokens: 48 })
  })

  it('two calls at one index in one delta stay two calls', async () => {
    const { calls, error } = await turn(await replay('same-index-one-delta.sse', size))
    expect(error).toBeUndefined()
    expect(calls).toEqual([call('call_1', 'file_read', { path: 'a.txt' }), call('call_2', 'file_read', { path: 'b.txt' })])
  })

  it('deltas without any index: pieces without an id continue the last call, a new id starts the next', async () => {
    const { calls, error } = await turn(await replay('no-index-pieces.sse', size))
    expect(error).toBeUndefined()
    expect(calls).toEqual([call('call_first', 'file_write', { path: 'notes/说明.md', content: 'line one\nline two' }), call('call_second', 'file_list', { path: 'notes' })])
  })

  it('CRLF line endings', async () => {
    const { calls, text, result, error } = await turn(await replay('crlf.sse', size))
    expect(error).toBeUndefined()
    expect(text).toBe('Checking the folder — 好的。')
    expect(calls).toEqual([call('chatcmpl-tool-9f', 'file_list', { path: 'src' })])
    expect(result?.usage).toMatchObject({ inputTokens: 90, outputTokens: 20, totalTokens: 110 })
  })

  it("an `error:` line in the stream (llama.cpp) is the model call's failure, in the server's words", async () => {
    const config = await replay('llamacpp-error-field.sse', size)
    const { text, error } = await turn(config)
    expect(text).toBe('The answer')
    expect(describeModelError(error, config)).toMatchObject({
      code: 'MODEL_ERROR',
      message: 'The model call failed: the request exceeds the available context size, try increasing it'
    })
  })
})
