/**
 * Tool arguments streamed in small pieces (issue 28, item 5): 0.5, 1 and 2 MB of arguments in
 * 7-character pieces through the whole loop (scripted OpenAI-compatible server on loopback, real
 * store), beside the floor measured in the same run: raw HTTP reading the same SSE stream to its end.
 * Linear means 2 MB costs 4× what 0.5 MB does, loop and floor alike.
 * Run: npx vitest bench --run --project unit bench/tool-args-stream.bench.ts
 */
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { startScriptedOpenAI } from '../test/fixtures/scripted-openai'
import type { RecordedRequest, ScriptStep, ScriptedServer } from '../test/fixtures/scripted-types'
import { createTempApp, runPrompt, type TempApp } from '../test/helpers/temp-app'

const SIZES_MB = [0.5, 1, 2]
const PIECE_CHARS = 7
const ROUNDS = 2

/** A tool call whose one argument is `megabytes` of text (an unknown tool: the runner answers at once), then text. */
function script(megabytes: number): ScriptStep {
  const content = 'abcdefghij'.repeat(Math.round((megabytes * 1024 * 1024) / 10))
  return (request: RecordedRequest) =>
    request.body.messages.at(-1)?.role === 'tool'
      ? { text: 'Done.' }
      : { toolCalls: [{ name: 'bench_sink', args: { content } }], argumentPieceChars: PIECE_CHARS }
}

const servers = new Map<number, ScriptedServer>()
const apps = new Map<number, TempApp>()

beforeAll(async () => {
  for (const size of SIZES_MB) {
    const server = await startScriptedOpenAI(new Array<ScriptStep>(100).fill(script(size)))
    servers.set(size, server)
    apps.set(size, createTempApp(server.url))
  }
})

afterAll(async () => {
  const rows: string[] = []
  const loop = new Map<number, number>()
  const raw = new Map<number, number>()
  for (const size of SIZES_MB) {
    const loopTimes: number[] = []
    const rawTimes: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      let start = performance.now()
      await loopRun(size)
      loopTimes.push(performance.now() - start)
      start = performance.now()
      await rawStream(size)
      rawTimes.push(performance.now() - start)
    }
    loop.set(size, Math.min(...loopTimes))
    raw.set(size, Math.min(...rawTimes))
    rows.push(
      `  ${String(size).padEnd(4)} MB  loop ${loop.get(size)!.toFixed(0).padStart(6)} ms   floor ${raw.get(size)!.toFixed(0).padStart(6)} ms   ` +
        `loop/floor ${(loop.get(size)! / raw.get(size)!).toFixed(1)}×`
    )
  }
  const first = SIZES_MB[0]!
  const last = SIZES_MB.at(-1)!
  console.log(
    [
      `\ntool arguments in ${PIECE_CHARS}-character pieces (best of ${ROUNDS}):`,
      ...rows,
      `  ${last} MB / ${first} MB: loop ${(loop.get(last)! / loop.get(first)!).toFixed(1)}×, floor ${(raw.get(last)! / raw.get(first)!).toFixed(1)}× (linear: ${(last / first).toFixed(0)}×)`
    ].join('\n')
  )
  for (const app of apps.values()) await app.dispose()
  for (const server of servers.values()) await server.close()
}, 900_000)

async function loopRun(size: number): Promise<void> {
  const app = apps.get(size)!
  const { outcome } = await runPrompt(app, 'write it')
  if (outcome.status !== 'completed') throw new Error(`run ${outcome.status}`)
  app.events.length = 0
  servers.get(size)!.requests.length = 0
}

/** The floor: the first model request's stream over raw HTTP, read to its end. */
async function rawStream(size: number): Promise<void> {
  const server = servers.get(size)!
  const response = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'scripted-model', stream: true, messages: [{ role: 'user', content: 'write it' }] })
  })
  await response.text()
  server.requests.length = 0
}

describe('tool arguments streamed in 7-character pieces', () => {
  bench('2 MB through the loop', () => loopRun(2), { iterations: 1, warmupIterations: 0, time: 0 })
})
