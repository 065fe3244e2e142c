/**
 * What a request sends when the conversation nears the window (docs/architecture.md, "Compaction"):
 * old large outputs elided with a note, old steps replaced by a marked summary, the newest steps
 * verbatim, a tool call never parted from its result; the originals untouched; a stored summary
 * reused by the next turn.
 */
import type { ModelMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { answerReserve, ContextKeeper } from '../../../src/main/agent/context-keeper'
import { CONTEXT_SUMMARY_MARKER, splitStoredHistory, storedSummary } from '../../../src/main/agent/context-summary'
import { estimateTextTokens } from '../../../src/main/agent/token-estimate'
import { isContextOverflow, windowFromOverflow } from '../../../src/main/providers'
import { APICallError } from '@ai-sdk/provider'

const user = (text: string): ModelMessage => ({ role: 'user', content: text })
const call = (id: string, path: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'file_read', input: { path } }] })
const result = (id: string, text: string): ModelMessage => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'file_read', output: { type: 'text', value: text } }] })

/** A question, then `steps` file reads of `chars` characters each. */
function conversation(steps: number, chars: number): ModelMessage[] {
  const messages = [user('Read the files and tell me what they say.')]
  for (let i = 1; i <= steps; i++) messages.push(call(`c${i}`, `f${i}.txt`), result(`c${i}`, `${i}:`.padEnd(chars, 'x')))
  return messages
}

/** Every tool result in the view has its call in the message before it, and every call its result after. */
function pairsIntact(view: ModelMessage[]): boolean {
  return view.every((message, index) => {
    if (message.role === 'tool') return view[index - 1]?.role === 'assistant' && JSON.stringify(view[index - 1]).includes(JSON.stringify((message.content[0] as { toolCallId: string }).toolCallId))
    if (message.role === 'assistant' && JSON.stringify(message.content).includes('tool-call')) return view[index + 1]?.role === 'tool'
    return true
  })
}

const summariser = (text = 'They hold numbers.') => {
  const seen: ModelMessage[][] = []
  return {
    seen,
    run: async (_previous: string | null, messages: readonly ModelMessage[]) => {
      seen.push([...messages])
      return { text, requests: 1 }
    }
  }
}

describe('ContextKeeper', () => {
  it('leaves an eighth of the window for the answer, at least 1,024 tokens and at most 16,384', () => {
    expect(answerReserve(4096)).toBe(1024)
    expect(answerReserve(16_384)).toBe(2048)
    expect(answerReserve(1_000_000)).toBe(16_384)
  })

  it('sends everything as it is while the prompt leaves room for the answer', async () => {
    const keeper = new ContextKeeper([], 100_000)
    keeper.add(...conversation(5, 3000))
    expect(keeper.needsCompaction(1000)).toBe(false)
    expect(keeper.view(1000)).toEqual(keeper.messages)
  })

  it('does not compact when the system prompt and tools alone fill the window: nothing it could do would help', () => {
    const keeper = new ContextKeeper([], 8192)
    keeper.add(...conversation(8, 3000))
    expect(keeper.needsCompaction(8000)).toBe(false)
    expect(keeper.needsCompaction(1000)).toBe(true)
  })

  it('elides large old outputs first, with a note naming the tool and size, and keeps the newest step whole', async () => {
    const keeper = new ContextKeeper([], 12_000)
    const messages = conversation(8, 4000)
    keeper.add(...messages)
    expect(keeper.needsCompaction(500)).toBe(true)
    const { run, seen } = summariser()
    const report = await keeper.compact(500, run, { onSummary: () => {} })
    expect(report).toMatchObject({ elided: expect.any(Number), summarised: 0, requests: 0 })
    expect(report!.elided).toBeGreaterThan(0)
    expect(seen).toHaveLength(0) // eliding was enough: no model request
    const view = keeper.view(500)
    expect(JSON.stringify(view)).toContain('[output of file_read elided: 4 KB; run it again if needed]')
    expect(view.at(-1)).toBe(messages.at(-1)) // the newest result verbatim
    expect(keeper.estimate(500)).toBeLessThanOrEqual(12_000 - answerReserve(12_000))
    expect(keeper.messages).toEqual(messages) // the originals are untouched
    expect(pairsIntact(view)).toBe(true)
  })

  it('summarises the old steps when eliding is not enough: a marked user message, the newest steps verbatim, pairs intact', async () => {
    const keeper = new ContextKeeper([], 8192)
    // Small outputs (nothing to elide), many of them.
    const messages = conversation(120, 150)
    keeper.add(...messages)
    const { run, seen } = summariser('The agent read f1 to f100.')
    const summaries: Array<{ text: string; covers: number }> = []
    const report = await keeper.compact(2000, run, { onSummary: (summary) => summaries.push(summary) })
    expect(report!.summarised).toBeGreaterThan(0)
    expect(report!.tokensAfter).toBeLessThan(report!.tokensBefore)
    const view = keeper.view(2000)
    expect(view[0]).toMatchObject({ role: 'user' })
    expect(view[0]!.content).toContain(CONTEXT_SUMMARY_MARKER)
    expect(view[0]!.content).toContain('not by the user')
    expect(view[0]!.content).toContain('The agent read f1 to f100.')
    // The user's request was summarised away: it comes along word for word.
    expect(view[0]!.content).toContain('Read the files and tell me what they say.')
    expect(view[1]!.role).toBe('assistant') // the tail starts with a call, never a lone result
    expect(pairsIntact(view)).toBe(true)
    expect(view.slice(1)).toEqual(messages.slice(summaries[0]!.covers))
    expect(seen[0]).toEqual(messages.slice(0, summaries[0]!.covers))
    expect(keeper.estimate(2000)).toBeLessThanOrEqual(8192 - answerReserve(8192))
  })

  it('a stored summary is reused by the next turn: the originals come back whole, the view starts with the summary', () => {
    const messages = conversation(10, 100)
    const history = [...messages.slice(0, 9), storedSummary({ text: 'Read f1 to f4.', covers: 9 }), ...messages.slice(9)]
    expect(splitStoredHistory(history)).toEqual({ originals: messages, summary: { text: 'Read f1 to f4.', covers: 9 } })
    const keeper = new ContextKeeper(history, 8192)
    expect(keeper.messages).toEqual(messages)
    const view = keeper.view(0)
    expect(view[0]!.content).toContain('Read f1 to f4.')
    expect(view.slice(1)).toEqual(messages.slice(9))
  })

  it('forced (the provider refused the prompt): summarises and elides even under the threshold', async () => {
    const keeper = new ContextKeeper([], 8192)
    keeper.add(...conversation(6, 2500))
    const { run } = summariser()
    const report = await keeper.compact(500, run, { forced: true, onSummary: () => {} })
    expect(report!.summarised).toBeGreaterThan(0)
    expect(JSON.stringify(keeper.view(500))).not.toContain('x'.repeat(2100))
  })

  it('estimates build on the provider’s count: the last request as reported plus what was added', () => {
    const keeper = new ContextKeeper([], 8192)
    keeper.add(user('hello'))
    keeper.view(1000)
    keeper.observe(700) // the provider counts less than we estimated
    const before = keeper.estimate(1000)
    expect(before).toBe(700)
    keeper.add(result('c1', 'y'.repeat(3000)))
    expect(keeper.estimate(1000)).toBe(700 + estimateTextTokens('y'.repeat(3000)) + 8)
  })

  it('narrows its window to one a provider named, never widens it', () => {
    const keeper = new ContextKeeper([], 1_000_000)
    keeper.narrowWindow(8192)
    keeper.narrowWindow(16_384)
    expect(keeper.window).toBe(8192)
  })

  it('counts a CJK character as a token and other text about three characters to one', () => {
    expect(estimateTextTokens('你好世界')).toBe(4)
    expect(estimateTextTokens('abcdef')).toBe(2)
  })
})

describe('isContextOverflow', () => {
  const apiError = (statusCode: number, body: unknown) =>
    new APICallError({ message: (body as { error: { message: string } }).error.message, url: 'http://x/v1/chat/completions', requestBodyValues: {}, statusCode, responseBody: JSON.stringify(body), data: body })
  it('knows OpenAI’s, vLLM’s and Anthropic’s answers to a prompt over the window', () => {
    expect(isContextOverflow(apiError(400, { error: { message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded' } }))).toBe(true)
    expect(isContextOverflow(apiError(400, { error: { message: 'This model\'s maximum context length is 4096 tokens. However, you requested 5000 tokens' } }))).toBe(true)
    expect(isContextOverflow(apiError(400, { error: { message: 'prompt is too long: 210000 tokens > 200000 maximum' } }))).toBe(true)
  })
  it('reads the window a refusal names', () => {
    expect(windowFromOverflow(apiError(400, { error: { message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens", code: 'context_length_exceeded' } }))).toBe(8192)
    expect(windowFromOverflow(apiError(400, { error: { message: 'prompt is too long: 210000 tokens > 200000 maximum' } }))).toBe(200_000)
    expect(windowFromOverflow(apiError(400, { error: { message: 'the request exceeds the available context size (4096 tokens), try increasing it' } }))).toBe(4096)
    expect(windowFromOverflow(apiError(400, { error: { message: 'prompt is too long', code: 'context_length_exceeded' } }))).toBeUndefined()
    expect(windowFromOverflow(apiError(400, { error: { message: 'Invalid tool schema, maximum context length is 8192' } }))).toBe(8192)
    expect(windowFromOverflow(apiError(500, { error: { message: 'maximum context length is 8192' } }))).toBeUndefined()
  })

  it('is no other error', () => {
    expect(isContextOverflow(apiError(400, { error: { message: 'Invalid tool schema' } }))).toBe(false)
    expect(isContextOverflow(apiError(500, { error: { message: 'maximum context length' } }))).toBe(false)
    expect(isContextOverflow(new Error('maximum context length'))).toBe(false)
  })
})
