/**
 * Agent-loop overhead per tool round trip, against the scripted OpenAI-compatible server on
 * loopback (real HTTP + SSE, real SQLite store). Run: npx vitest bench --run bench/loop.bench.ts
 * "one tool round trip" minus "text only" is what one tool call adds: a second model request,
 * argument validation, policy, the tool itself (file_list), truncation and ~6 persisted events.
 */
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { startScriptedOpenAI } from '../test/fixtures/scripted-openai'
import type { RecordedRequest, ScriptStep, ScriptedServer } from '../test/fixtures/scripted-types'
import { createTempApp, runPrompt, type TempApp } from '../test/helpers/temp-app'

const STEPS = 200_000

/** Answers with a tool call first, then with text once the tool result is in the request. */
const toolThenText: ScriptStep = (request: RecordedRequest) => {
  const last = request.body.messages.at(-1)
  return last.role === 'tool' ? { text: 'Listed.' } : { toolCalls: [{ name: 'file_list', args: {} }] }
}

let textServer: ScriptedServer
let toolServer: ScriptedServer
let textApp: TempApp
let toolApp: TempApp

beforeAll(async () => {
  textServer = await startScriptedOpenAI(new Array<ScriptStep>(STEPS).fill({ text: 'Hello there.' }))
  toolServer = await startScriptedOpenAI(new Array<ScriptStep>(STEPS).fill(toolThenText))
  textApp = createTempApp(textServer.url)
  toolApp = createTempApp(toolServer.url)
})

afterAll(async () => {
  await textApp.dispose()
  await toolApp.dispose()
  await textServer.close()
  await toolServer.close()
})

describe('agent loop', () => {
  bench('run: text answer only (1 model request)', async () => {
    await runPrompt(textApp, 'hi')
    textApp.events.length = 0
  }, { time: 3_000, warmupIterations: 5 })

  bench('run: one tool round trip (2 model requests + file_list)', async () => {
    await runPrompt(toolApp, 'list')
    toolApp.events.length = 0
  }, { time: 3_000, warmupIterations: 5 })
})
