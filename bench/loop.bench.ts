/**
 * Agent-loop overhead per tool round trip, against the scripted OpenAI-compatible server on
 * loopback (real HTTP + SSE, real SQLite store), beside its floor measured in the same run:
 * raw HTTP (fetch) posting the very body the loop sent for a model request and reading its SSE to the end.
 * Run: npx vitest bench --run --project unit bench/loop.bench.ts
 *
 * "one tool round trip" minus "text only" is what one tool call adds: a second model request,
 * argument validation, policy, the tool itself (file_list), truncation and its events. Beyond the
 * HTTP call = that minus the floor. The file also prints its own medians of alternating rounds
 * (tinybench's means swing with the machine's load) and the SQLite commits per run.
 */
import { loadavg } from 'node:os'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { startScriptedOpenAI } from '../test/fixtures/scripted-openai'
import type { RecordedRequest, ScriptStep, ScriptedServer } from '../test/fixtures/scripted-types'
import { createTempApp, runPrompt, type TempApp } from '../test/helpers/temp-app'

const STEPS = 200_000
const ROUNDS = Number(process.env.DESKCLAW_BENCH_ROUNDS ?? 120)

/** Answers with a tool call first, then with text once the tool result is in the request. */
const toolThenText: ScriptStep = (request: RecordedRequest) => {
  const last = request.body.messages.at(-1)
  return last.role === 'tool' ? { text: 'Listed.' } : { toolCalls: [{ name: 'file_list', args: {} }] }
}

let textServer: ScriptedServer
let toolServer: ScriptedServer
let textApp: TempApp
let toolApp: TempApp
/** The second model request of a tool run, as the loop sent it: the floor posts exactly this. */
let roundTripBody = ''

beforeAll(async () => {
  textServer = await startScriptedOpenAI(new Array<ScriptStep>(STEPS).fill({ text: 'Hello there.' }))
  toolServer = await startScriptedOpenAI(new Array<ScriptStep>(STEPS).fill(toolThenText))
  textApp = createTempApp(textServer.url)
  toolApp = createTempApp(toolServer.url)
  await toolRun()
  roundTripBody = JSON.stringify(toolServer.requests.at(-1)!.body)
})

afterAll(async () => {
  await report()
  await textApp.dispose()
  await toolApp.dispose()
  await textServer.close()
  await toolServer.close()
}, 600_000)

async function textRun(): Promise<void> {
  await runPrompt(textApp, 'hi')
  textApp.events.length = 0
  textServer.requests.length = 0
}

async function toolRun(): Promise<void> {
  await runPrompt(toolApp, 'list')
  toolApp.events.length = 0
  if (toolServer.requests.length > 4) toolServer.requests.splice(0, toolServer.requests.length - 2)
}

/** The floor: one model request over raw HTTP with the loop's own body, SSE read to the end. */
async function rawRequest(): Promise<void> {
  const response = await fetch(`${toolServer.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: roundTripBody
  })
  await response.text()
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Alternating rounds, medians, the overhead beyond HTTP and its ratio to the floor. */
async function report(): Promise<void> {
  const times = { text: [] as number[], tool: [] as number[], raw: [] as number[] }
  // CPU time of this process (the scripted server runs here too): steadier than wall time on a loaded machine.
  const cpu = { text: [] as number[], tool: [] as number[], raw: [] as number[] }
  const commits = { text: 0, tool: 0 }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of [['text', textRun], ['tool', toolRun], ['raw', rawRequest]] as const) {
      const store = name === 'text' ? textApp.app.store : toolApp.app.store
      const before = 'commits' in store ? (store.commits as number) : 0
      const start = performance.now()
      const startCpu = process.cpuUsage()
      await run()
      times[name].push(performance.now() - start)
      const used = process.cpuUsage(startCpu)
      cpu[name].push((used.user + used.system) / 1000)
      if (name !== 'raw') commits[name] += ('commits' in store ? (store.commits as number) : 0) - before
    }
  }
  const text = median(times.text)
  const tool = median(times.tool)
  const raw = median(times.raw)
  const overhead = tool - text - raw
  const [textCpu, toolCpu, rawCpu] = [median(cpu.text), median(cpu.tool), median(cpu.raw)]
  const overheadCpu = toolCpu - textCpu - rawCpu
  console.log(
    [
      `\nloop overhead, medians of ${ROUNDS} alternating rounds (ms; wall, then CPU of this process), load ${loadavg().map((l) => l.toFixed(2)).join(' ')}:`,
      `  run, text answer only (1 model request)        wall ${text.toFixed(2)}  CPU ${textCpu.toFixed(2)}`,
      `  run, one tool round trip (2 requests + tool)   wall ${tool.toFixed(2)}  CPU ${toolCpu.toFixed(2)}`,
      `  floor: raw HTTP, same body, SSE read to end    wall ${raw.toFixed(2)}  CPU ${rawCpu.toFixed(2)}`,
      `  one tool round trip beyond the HTTP call       wall ${overhead.toFixed(2)} (${(overhead / raw).toFixed(2)}× the floor)  CPU ${overheadCpu.toFixed(2)} (${(overheadCpu / rawCpu).toFixed(2)}× the floor)`,
      `  SQLite commits per run: text ${(commits.text / ROUNDS).toFixed(1)}, tool ${(commits.tool / ROUNDS).toFixed(1)}`
    ].join('\n')
  )
}

describe('agent loop', () => {
  bench('floor: raw HTTP request with the loop\'s body (SSE read to the end)', rawRequest, { time: 3_000, warmupIterations: 5 })
  bench('run: text answer only (1 model request)', textRun, { time: 3_000, warmupIterations: 5 })
  bench('run: one tool round trip (2 model requests + file_list)', toolRun, { time: 3_000, warmupIterations: 5 })
})
