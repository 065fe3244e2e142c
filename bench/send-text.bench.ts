/**
 * The send-text task end to end on a real X server (Xvfb 1280×800 + openbox) against the WeChat-like
 * test window (Chromium --app): time per send (activate → search → verify → open → verify header →
 * paste → verify draft → send → verify), how long each step takes (from the step before it), and
 * where the time goes: each OCR reading, and each call on the desktop (key presses, pastes,
 * screenshots, the clipboard), summed per send.
 * Run: npx vitest bench --run --project unit bench/send-text.bench.ts
 * Needs what .ci/run installs (Xvfb, openbox, Chromium); without them it says so and measures nothing.
 */
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { ChatSender, MemorySendLog, type SendStep } from '../src/main/chat-apps'
import { DesktopService, TesseractOcr, type OcrEngine, type OcrResult } from '../src/main/desktop'
import { hasChromium } from '../test/helpers/browser'
import { openChatApp, type ChatApp } from '../test/helpers/chat-app'
import { hasXServerTools, startDisplay, type TestDisplay } from '../test/helpers/xvfb'
import { LatencyRecorder, latencyTable, summarize } from './runtime-latency'

const SENDS = 20
const available = hasXServerTools() && hasChromium()
if (!available) console.warn('[bench] send-text: Xvfb/openbox or Chromium is missing; nothing measured')

let display: TestDisplay
let desktop: DesktopService
let chat: ChatApp
let ocr: TesseractOcr
let sender: ChatSender
const recorder = new LatencyRecorder()
let sends = 0
/** Per send: ms per step (since the step before) and per kind of work, summed over the send. */
const perSend: Array<Map<string, number>> = []
let current = new Map<string, number>()
const add = (name: string, ms: number) => current.set(name, (current.get(name) ?? 0) + ms)

/** Times every call of these DesktopService methods, summed per send. */
function timeDesktop(service: DesktopService): void {
  const methods = ['pasteText', 'pressKeys', 'click', 'screenshot', 'windows', 'focus', 'saveClipboard', 'readClipboard', 'writeClipboard'] as const
  for (const method of methods) {
    const original = (service[method] as (...args: unknown[]) => Promise<unknown>).bind(service)
    ;(service as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      const started = performance.now()
      try {
        return await original(...args)
      } finally {
        add(`desktop.${method}`, performance.now() - started)
      }
    }
  }
}

/** Times every recognition the task asks for. */
class TimedOcr implements OcrEngine {
  constructor(private readonly inner: OcrEngine) {}
  recognize(png: Uint8Array, options?: { signal?: AbortSignal }): Promise<OcrResult> {
    const started = performance.now()
    return recorder.time('OCR per verification', () => this.inner.recognize(png, options)).finally(() => add('OCR (all readings)', performance.now() - started))
  }
  close(): Promise<void> {
    return this.inner.close()
  }
}

beforeAll(async () => {
  if (!available) return
  display = await startDisplay({ shared: false })
  chat = await openChatApp(display, { chats: [{ name: '产品群' }, { name: '产品群（旧）' }, { name: '张伟' }, { name: '张伟 (HR)' }], resultsOrder: ['张伟 (HR)'] })
  desktop = new DesktopService({ env: display.env, settings: () => ({ screenshotMaxWidth: 1280, desktopFailSafe: false }) })
  timeDesktop(desktop)
  ocr = new TesseractOcr()
  const timed = new TimedOcr(ocr)
  sender = new ChatSender({
    desktop,
    ocr: () => timed,
    log: new MemorySendLog(),
    platform: 'linux',
    settings: () => ({
      chatApps: { weixin: { enabled: true, allowlist: [] } },
      chatSendMinIntervalSec: 0,
      chatSendPerHour: 10_000,
      chatWatermark: 'suffix',
      chatWatermarkSuffix: ' [DeskClaw]',
      chatSendTimeoutSec: 60
    })
  })
  // Warm up: the OCR worker starts and the language data loads on the first send.
  const started = performance.now()
  await send()
  console.log(`\nfirst send (OCR start included): ${(performance.now() - started).toFixed(0)} ms`)
}, 120_000)

async function send(): Promise<void> {
  const to = sends % 2 === 0 ? '张伟' : '产品群'
  sends++
  current = new Map()
  let last = performance.now()
  const onStep = (step: SendStep) => {
    const now = performance.now()
    add(`step: ${step.step}`, now - last)
    last = now
  }
  const outcome = await sender.send({
    onStep,
    app: 'weixin',
    to,
    text: `第${sends}条：今天下午三点开会 👋`,
    runId: 'bench',
    conversationId: 'bench',
    confirm: async () => ({ allowed: true })
  })
  if (outcome.status !== 'sent') throw new Error(`send ${sends} to ${to}: ${outcome.status}: ${outcome.reason}`)
  perSend.push(current)
}

afterAll(async () => {
  if (!available || !desktop) return
  console.log(`\nsend-text (ms, last ${SENDS} sends; ${chat.sent().length} messages arrived):\n${latencyTable(recorder.summaries(SENDS * 10))}\n`)
  const profiled = perSend.slice(-SENDS)
  const names = [...new Set(profiled.flatMap((m) => [...m.keys()]))].sort()
  console.log(`where a send's time goes (ms per send, last ${profiled.length}; steps are from the step before, the rest sums calls):\n${latencyTable(names.map((n) => summarize(n, profiled.map((m) => m.get(n) ?? 0))))}\n`)
  await ocr.close()
  await desktop.shutdown()
  await chat.close()
  await display.stop()
})

describe.skipIf(!available)('send-text', () => {
  bench(
    'one send, verified at every step',
    () => recorder.time('time per send', send),
    { iterations: SENDS, warmupIterations: 0, time: 0 }
  )
})
