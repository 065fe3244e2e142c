/**
 * The chat in a real Chromium (Debian's, through playwright-core) against the web host, the same
 * renderer and bridge as the app (no timing assertions; numbers are for docs/benchmarks.md):
 *  (a) a live run of 300 tool calls (the scripted model asks for file_list in batches of 10,
 *      autonomy full): every animation frame's timestamp is recorded in the page while it streams;
 *      printed: median fps (1000 / median frame interval), the longest frame, frames over 50 ms;
 *      targets ≥ 50 fps median and no frame over 100 ms;
 *  (b) opening a stored 1,000-call conversation (10 runs of 100 calls): from the click (the event's
 *      timestamp) to the frame in which its last answer is painted (the check runs in a
 *      requestAnimationFrame callback, the time is taken in a task right after that frame);
 *      target ≤ 300 ms.
 * Run: npm run build && DESKCLAW_CHROMIUM=/usr/bin/chromium npx vitest bench --run --project unit bench/ui-chat.bench.ts
 * (DESKCLAW_RENDERER_DIR=<dir> serves another build of the renderer, e.g. one that no one else
 * rebuilds while it runs.) Without Chromium or a built renderer it says so and measures nothing.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { startWebHost, type WebHost } from '../src/main/bridge'
import { startScriptedOpenAI } from '../test/fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer, ScriptedTurn } from '../test/fixtures/scripted-types'
import { chromiumPath, openBrowser, rendererDir } from '../test/helpers/browser'
import { seedToolConversation, type SeededConversation } from '../test/helpers/seed-conversation'
import { createTempApp, type TempApp } from '../test/helpers/temp-app'
import { summarize } from './runtime-latency'

const LIVE_CALLS = 300
const BATCH = 10
const LIVE_RUNS = 3
const STORED_RUNS = 10
const STORED_CALLS_PER_RUN = 100
const OPENS = 10
const FINAL = `All ${LIVE_CALLS} folders listed.`

const renderer = process.env.DESKCLAW_RENDERER_DIR ?? rendererDir
const available = existsSync(chromiumPath) && existsSync(join(renderer, 'index.html')) && existsSync(join(rendererDir, 'index.html'))
if (!available) {
  console.warn(`[bench] ui-chat: needs Chromium (${chromiumPath}, or set DESKCLAW_CHROMIUM) and a built renderer (npm run build); nothing measured`)
}

/** The model's side of one live run: 30 steps of 10 listings (each its own folder: a step runs identical calls once), then the answer. */
function liveRunScript(): ScriptStep[] {
  const steps: ScriptedTurn[] = []
  for (let step = 0; step < LIVE_CALLS / BATCH; step++) {
    steps.push({ toolCalls: Array.from({ length: BATCH }, (_, i) => ({ name: 'file_list', args: { path: `d${i}` } })) })
  }
  steps.push({ text: FINAL })
  return steps
}

interface FrameStats {
  frames: number
  seconds: number
  medianFps: number
  meanFps: number
  longestMs: number
  over50: number
  over100: number
  scrollHeight: number
}

const live: FrameStats[] = []
const opens: number[] = []

let server: ScriptedServer
let temp: TempApp
let host: WebHost
let browser: Browser
let page: Page
let stored: SeededConversation
let other: string

beforeAll(async () => {
  if (!available) return
  const script: ScriptStep[] = []
  // One spare run: tinybench may run the function once more than asked.
  for (let run = 0; run < LIVE_RUNS + 1; run++) script.push(...liveRunScript())
  server = await startScriptedOpenAI(script)
  temp = createTempApp(server.url, { autonomy: 'full', maxIterations: 100 })
  for (let i = 0; i < BATCH; i++) mkdirSync(join(temp.workspace, `d${i}`))
  stored = seedToolConversation(temp.app, { runs: STORED_RUNS, callsPerRun: STORED_CALLS_PER_RUN, title: 'A thousand calls' })
  other = temp.app.store.createConversation('Another conversation').id
  host = await startWebHost({ app: temp.app, rendererDir: renderer })
  ;({ browser, page } = await openBrowser({ colorScheme: 'light' }))
})

afterAll(async () => {
  if (!available) return
  await browser?.close()
  await host?.close()
  await temp?.dispose()
  await server?.close()
  if (live.length > 0) {
    const f = (n: number) => n.toFixed(1)
    console.log(
      [
        '',
        `Live run of ${LIVE_CALLS} tool calls (batches of ${BATCH}, autonomy full), Chromium ${chromiumPath}:`,
        '| run | frames | seconds | median fps | mean fps | longest frame (ms) | frames > 50 ms | frames > 100 ms | scrollHeight at the end (px) |',
        '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        ...live.map(
          (s, i) =>
            `| ${i + 1} | ${s.frames} | ${f(s.seconds)} | ${f(s.medianFps)} | ${f(s.meanFps)} | ${f(s.longestMs)} | ${s.over50} | ${s.over100} | ${s.scrollHeight} |`
        ),
        ''
      ].join('\n')
    )
  }
  if (opens.length > 0) {
    const s = summarize('open', opens)
    console.log(
      [
        `Opening a stored ${STORED_RUNS * STORED_CALLS_PER_RUN}-call conversation, click → painted (ms, ${opens.length} opens):`,
        `median ${s.medianMs.toFixed(1)} · p95 ${s.p95Ms.toFixed(1)} · mean ${s.meanMs.toFixed(1)} · max ${s.maxMs.toFixed(1)}`,
        `every open: ${opens.map((ms) => ms.toFixed(0)).join(', ')}`,
        ''
      ].join('\n')
    )
  }
})

/** Starts recording every animation frame's timestamp in the page. */
async function recordFrames(target: Page): Promise<void> {
  await target.evaluate(() => {
    const w = globalThis as unknown as { __frames: number[]; __recording: boolean; requestAnimationFrame(cb: (t: number) => void): number }
    w.__frames = []
    w.__recording = true
    const loop = (t: number) => {
      w.__frames.push(t)
      if (w.__recording) w.requestAnimationFrame(loop)
    }
    w.requestAnimationFrame(loop)
  })
}

async function stopFrames(target: Page): Promise<number[]> {
  return target.evaluate(() => {
    const w = globalThis as unknown as { __frames: number[]; __recording: boolean }
    w.__recording = false
    return w.__frames
  })
}

function frameStats(timestamps: readonly number[], scrollHeight: number): FrameStats {
  const intervals = timestamps.slice(1).map((t, i) => t - timestamps[i]!)
  const median = summarize('frames', intervals).medianMs
  const seconds = (timestamps.at(-1)! - timestamps[0]!) / 1000
  return {
    frames: intervals.length,
    seconds,
    medianFps: 1000 / median,
    meanFps: intervals.length / seconds,
    longestMs: Math.max(...intervals),
    over50: intervals.filter((ms) => ms > 50).length,
    over100: intervals.filter((ms) => ms > 100).length,
    scrollHeight
  }
}

const scrollHeight = (target: Page) =>
  target.locator('.chat-scroll').evaluate((el) => (el as unknown as { scrollHeight: number }).scrollHeight)

describe.skipIf(!available)('the chat in Chromium', () => {
  bench(
    `live run of ${LIVE_CALLS} tool calls: frames while it streams`,
    async () => {
      await page.goto(host.url)
      await page.getByTestId('new-conversation').click()
      await page.getByTestId('composer-input').fill('List every folder, ten at a time')
      await recordFrames(page)
      await page.getByTestId('send-button').click()
      await page.getByTestId('message-assistant').filter({ hasText: FINAL }).waitFor({ timeout: 120_000 })
      const frames = await stopFrames(page)
      live.push(frameStats(frames, await scrollHeight(page)))
    },
    { iterations: LIVE_RUNS, time: 0, warmupIterations: 0, warmupTime: 0 }
  )

  bench(
    `open a stored ${STORED_RUNS * STORED_CALLS_PER_RUN}-call conversation: click → painted`,
    async () => {
      await page.goto(host.url)
      // From another conversation, as a person would switch.
      await page.locator(`[data-testid="conversation-item"][data-conversation-id="${other}"]`).click()
      await page.locator(`[data-testid="conversation-item"][data-conversation-id="${other}"].selected`).waitFor()
      await page.evaluate((answer) => {
        const w = globalThis as unknown as {
          __opened: Promise<number>
          document: {
            addEventListener(type: string, cb: (e: { timeStamp: number }) => void, options: unknown): void
            querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>
          }
          performance: { now(): number }
          requestAnimationFrame(cb: () => void): number
          setTimeout(cb: () => void, ms: number): number
        }
        w.__opened = new Promise<number>((resolve) => {
          let clickedAt: number | null = null
          w.document.addEventListener('click', (event) => (clickedAt = event.timeStamp), { capture: true, once: true })
          const check = () => {
            const answers = w.document.querySelectorAll('[data-testid="message-assistant"]')
            const last = answers.length > 0 ? answers[answers.length - 1]! : null
            // Inside this frame's callback: the DOM is what this frame paints; the task after it runs once it is painted.
            if (clickedAt !== null && last?.textContent?.includes(answer)) w.setTimeout(() => resolve(w.performance.now() - clickedAt!), 0)
            else w.requestAnimationFrame(check)
          }
          w.requestAnimationFrame(check)
        })
      }, stored.lastAnswer)
      await page.locator(`[data-testid="conversation-item"][data-conversation-id="${stored.id}"]`).click()
      opens.push(await page.evaluate(() => (globalThis as unknown as { __opened: Promise<number> }).__opened))
    },
    { iterations: OPENS, time: 0, warmupIterations: 0, warmupTime: 0 }
  )
})
