import { describe, expect, it } from 'vitest'
import { coalesceArgumentPieces, joinEvents } from '../../../src/main/providers/coalesced-arguments'

const openAIChunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}`
const argPiece = (index: number, text: string) => openAIChunk({ tool_calls: [{ index, function: { arguments: text } }] })
const anthropicPiece = (index: number, text: string) =>
  `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: text } })}`

/** The arguments each call ends with, read the way the SDK reads the stream: every event in order. */
function argumentsOf(stream: string): Record<string, string> {
  const calls: Record<string, string> = {}
  for (const event of stream.split('\n\n').filter(Boolean)) {
    const line = event.split('\n').find((candidate) => candidate.startsWith('data:'))!.slice(5)
    if (line.trim() === '[DONE]') continue
    const data = JSON.parse(line)
    for (const call of data.choices?.[0]?.delta?.tool_calls ?? []) calls[`o${call.index}`] = (calls[`o${call.index}`] ?? '') + (call.function?.arguments ?? '')
    if (data.delta?.type === 'input_json_delta') calls[`a${data.index}`] = (calls[`a${data.index}`] ?? '') + data.delta.partial_json
  }
  return calls
}

async function throughStream(text: string, readSize: number): Promise<string> {
  const bytes = new TextEncoder().encode(text)
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += readSize) controller.enqueue(bytes.slice(i, i + readSize))
      controller.close()
    }
  })
  return new Response(source.pipeThrough(coalesceArgumentPieces())).text()
}

describe('coalesced tool argument pieces', () => {
  it('joins neighbouring pieces of one call and leaves everything else as it was', () => {
    const events = [
      openAIChunk({ role: 'assistant', content: '' }),
      openAIChunk({ content: 'Let me write.' }),
      openAIChunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'file_write', arguments: '' } }] }),
      argPiece(0, '{"path":'),
      argPiece(0, '"a.txt","con'),
      argPiece(0, 'tent":"hi"}'),
      openAIChunk({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'file_list', arguments: '{}' } }] }),
      argPiece(1, ''),
      openAIChunk({}, 'tool_calls'),
      'data: [DONE]'
    ]
    const joined = joinEvents(events)
    const out = joined.split('\n\n').filter(Boolean)
    expect(out).toHaveLength(events.length - 2)
    expect(out[3]).toBe(argPiece(0, '{"path":"a.txt","content":"hi"}'))
    expect(out.filter((_, i) => i !== 3)).toEqual(events.filter((_, i) => i < 3 || i > 5))
    expect(argumentsOf(joined)).toEqual(argumentsOf(events.map((event) => `${event}\n\n`).join('')))
  })

  it('keeps every call whole for any split of the bytes (OpenAI and Anthropic pieces, two calls interleaved)', async () => {
    const events: string[] = []
    for (let i = 0; i < 120; i++) {
      events.push(i % 7 === 3 ? argPiece(1, `[${i}é"\\n`) : argPiece(0, `{${i}中,`))
      if (i % 11 === 0) events.push(anthropicPiece(2, `"k${i}":`))
      if (i % 50 === 0) events.push(openAIChunk({ content: `text ${i}` }))
    }
    const stream = `${events.join('\n\n')}\n\n`
    for (const readSize of [13, 64, 1000, stream.length]) {
      const out = await throughStream(stream, readSize)
      expect(argumentsOf(out)).toEqual(argumentsOf(stream))
      expect(out.split('\n\n').length).toBeLessThanOrEqual(stream.split('\n\n').length)
    }
    // One read of the whole stream joins each run of neighbours: far fewer events.
    expect((await throughStream(stream, stream.length)).split('\n\n').length).toBeLessThan(events.length / 2)
  })

  it('passes a final event without its blank line through as it came', async () => {
    expect(await throughStream(`${argPiece(0, 'a')}\n\n${argPiece(0, 'b')}`, 5)).toBe(`${argPiece(0, 'a')}\n\n${argPiece(0, 'b')}`)
  })
})
