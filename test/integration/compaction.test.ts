/**
 * Compaction (docs/architecture.md, "Compaction"), the Done-when line of issue 25: a scripted
 * 200-step conversation against a model with an 8k-token window completes without a context
 * error, with a summary in the request and every original step in the store. The scripted OpenAI
 * server enforces the window (gpt-tokenizer's count, OpenAI's real 400 context_length_exceeded);
 * a real app, a real store, real file_read calls of sizeable files.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ModelMessage } from 'ai'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { RecordedRequest, ScriptStep, ScriptedServer } from '../fixtures/scripted-types'
import { createTempApp, runPrompt, type TempApp } from '../helpers/temp-app'
import type { AgentEventOf } from '../../src/shared'

/*
 * The Done-when line's 8k window. The 50 built-in tools' declarations are 5,172 tokens compact
 * (chosen automatically for a window this small), 8,882 in full (docs/benchmarks.md): most of the
 * window is the tools, and compaction keeps the rest inside it.
 */
const WINDOW = 8192
const MARKER = '[Context summary by DeskClaw]'
const TURNS = [70, 70, 60] // 200 tool steps in all

let server: ScriptedServer | undefined
let temp: TempApp | undefined
afterEach(async () => {
  await temp?.dispose()
  await server?.close()
  temp = server = undefined
})

const isSummaryRequest = (request: RecordedRequest) =>
  request.body?.tools === undefined && JSON.stringify(request.body?.messages ?? []).includes('You summarise an AI agent')
const sentText = (request: RecordedRequest) => JSON.stringify(request.body?.messages ?? [])

/** A file of about 2.5 KB whose lines say which file and line they are (so every output differs). */
function sizeableFile(n: number): string {
  return Array.from({ length: 40 }, (_, line) => `file ${n} line ${line + 1}: the quick brown fox jumps over the lazy dog ${n * 100 + line}`).join('\n') + '\n'
}

describe('compaction near the context window', () => {
  it('200 steps against an 8k window: no context error, a summary in later requests, every step in the store', { timeout: 120_000 }, async () => {
    // The model: a file_read per step until the turn's count is reached, then an answer; a
    // summarisation request (no tools, the summary instruction) gets a summary naming what it saw.
    let step = 0
    let turnSteps = 0
    let turn = 0
    let summaries = 0
    const model: ScriptStep = (request) => {
      if (isSummaryRequest(request)) {
        const read = [...sentText(request).matchAll(/f(\d+)\.txt/g)].map((match) => Number(match[1]))
        return { text: `Summary ${++summaries}: the agent read files up to f${Math.max(0, ...read)}.txt, line by line; each holds 60 lines about a fox.` }
      }
      if (turnSteps === TURNS[turn]) {
        turnSteps = 0
        turn++
        return { text: `Turn ${turn} done.` }
      }
      turnSteps++
      step++
      return { toolCalls: [{ name: 'file_read', args: { path: `data/f${step}.txt` } }] }
    }
    server = await startScriptedOpenAI(Array.from({ length: 400 }, () => model), { contextWindow: WINDOW })
    temp = createTempApp(server.url, { contextWindow: WINDOW, maxIterations: 100, readCacheTtlSec: 0 })
    mkdirSync(join(temp.workspace, 'data'))
    for (let n = 1; n <= 200; n++) writeFileSync(join(temp.workspace, 'data', `f${n}.txt`), sizeableFile(n))

    const conversationId = temp.app.store.createConversation().id
    const runs = []
    for (const [index, steps] of TURNS.entries()) {
      runs.push(await runPrompt(temp, `Part ${index + 1}: read the next ${steps} files one by one.`, conversationId))
    }

    // Every turn completed with its answer; nothing failed.
    expect(runs.map((run) => run.outcome)).toEqual(TURNS.map((_, index) => expect.objectContaining({ status: 'completed', stopReason: 'final', text: `Turn ${index + 1} done.` })))
    const events = runs.flatMap((run) => run.events)
    expect(events.filter((event) => event.type === 'run_failed')).toEqual([])

    // No request went over the window, and the server never had to refuse one.
    const modelRequests = server.requests.filter((request) => request.path === '/v1/chat/completions')
    const biggest = Math.max(...modelRequests.map((request) => request.promptTokens!))
    expect(biggest).toBeLessThanOrEqual(WINDOW)
    // Without compaction, the last request would hold 200 outputs of ~1,000 tokens each.
    expect(modelRequests.length).toBeGreaterThan(200)

    // The conversation was compacted, by the model's summary, and later requests carried it.
    const compactions = events.filter((event): event is AgentEventOf<'context_compacted'> => event.type === 'context_compacted')
    expect(compactions.length).toBeGreaterThan(0)
    expect(compactions.some((event) => event.summarised > 0)).toBe(true)
    expect(summaries).toBeGreaterThan(0)
    const agentRequests = modelRequests.filter((request) => !isSummaryRequest(request))
    const lastSummary = modelRequests.findLastIndex(isSummaryRequest)
    const afterSummary = agentRequests.filter((request) => modelRequests.indexOf(request) > lastSummary)
    expect(afterSummary.length).toBeGreaterThan(0)
    for (const request of afterSummary) expect(sentText(request)).toContain(MARKER)
    expect(sentText(agentRequests.at(-1)!)).toContain(`Summary ${summaries}:`)
    // The marker is in a user message the model is told is DeskClaw's, never the user's words.
    const summaryMessage = (agentRequests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>).find((message) => JSON.stringify(message.content).includes(MARKER))!
    expect(summaryMessage.role).toBe('user')
    expect(JSON.stringify(summaryMessage.content)).toContain('not by the user')

    // A later turn starts from the stored summary: its first request carries it, with no
    // summarisation request between the turns.
    const turnStarts = agentRequests.filter((request) => /Part [23]: read/.test(JSON.stringify(request.body.messages.at(-1))))
    expect(turnStarts).toHaveLength(2)
    for (const start of turnStarts) {
      expect(sentText(start)).toContain(MARKER)
      expect(isSummaryRequest(modelRequests[modelRequests.indexOf(start) - 1]!)).toBe(false)
    }

    // Every original step is in the store: 200 tool calls and their results in the model history,
    // 200 completed calls in the timeline, the three questions and three answers.
    const stored = temp.app.store.loadModelMessages(conversationId) as ModelMessage[]
    const parts = stored.flatMap((message) => (typeof message.content === 'string' ? [] : [...message.content])) as Array<{ type: string }>
    const called = parts.filter((part) => part.type === 'tool-call').map((part) => (part as unknown as { input: { path: string } }).input.path)
    expect(called).toEqual(Array.from({ length: 200 }, (_, i) => `data/f${i + 1}.txt`))
    const results = parts.filter((part) => part.type === 'tool-result') as unknown as Array<{ output: { value: string } }>
    expect(results).toHaveLength(200)
    expect(results[0]!.output.value).toContain('file 1 line 40:') // whole, not elided
    const detail = temp.app.store.getConversation(conversationId)!
    expect(detail.toolCalls.filter((call) => call.status === 'completed')).toHaveLength(200)
    expect(detail.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant'])
    // A reload gets what the live view had: each run's fill of the window (its last request as the
    // server counted it) and its compactions.
    for (const run of detail.runs) {
      const last = events.findLast((event): event is AgentEventOf<'context_usage'> => event.type === 'context_usage' && event.runId === run.id)!
      expect(run.context).toEqual({ inputTokens: last.inputTokens, window: WINDOW, source: 'setting' })
    }
    expect(detail.runs.flatMap((run) => run.compactions ?? [])).toHaveLength(compactions.length)
    expect(detail.runs.at(-1)!.context!.inputTokens).toBe(agentRequests.at(-1)!.promptTokens)
  })

  it('a provider that still refuses the prompt as too long: the run compacts harder once and sends it again', async () => {
    const overflow = {
      status: 400,
      errorBody: { error: { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } }
    }
    const summary: ScriptStep = (request) => (isSummaryRequest(request) ? { text: 'Summary: f1 to f3 were read.' } : { text: 'unexpected request' })
    server = await startScriptedOpenAI([
      { toolCalls: [{ name: 'file_read', args: { path: 'data/f1.txt' } }] },
      { toolCalls: [{ name: 'file_read', args: { path: 'data/f2.txt' } }] },
      { toolCalls: [{ name: 'file_read', args: { path: 'data/f3.txt' } }] },
      overflow,
      summary,
      { text: 'All three read.' }
    ])
    // The window set far larger than what the server really takes: only its refusal tells.
    temp = createTempApp(server.url, { contextWindow: 1_000_000 })
    mkdirSync(join(temp.workspace, 'data'))
    for (let n = 1; n <= 3; n++) writeFileSync(join(temp.workspace, 'data', `f${n}.txt`), sizeableFile(n))
    const { outcome, events } = await runPrompt(temp, 'Read f1 to f3.')
    expect(outcome).toMatchObject({ status: 'completed', stopReason: 'final', text: 'All three read.' })
    // Planned from then on with the window the refusal named, not the one Settings claimed.
    expect(events.filter((event) => event.type === 'context_compacted')).toEqual([expect.objectContaining({ forced: true, summarised: expect.any(Number), window: 8192 })])
    const retried = server.requests.at(-1)!
    expect(sentText(retried)).toContain('Summary: f1 to f3 were read.')
    expect(sentText(retried)).not.toContain('file 1 line 40:') // old outputs are out of the retried request
    // The question was summarised too, and comes along word for word in the summary.
    expect(retried.body.messages.filter((message: { content: unknown }) => message.content === 'Read f1 to f3.')).toEqual([])
    expect(sentText(retried)).toContain("The user's latest request in the summarised part, verbatim:\\nRead f1 to f3.")
  })
})
