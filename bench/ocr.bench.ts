/**
 * Offline OCR (src/main/desktop/ocr/): time per recognition of a chat header (700×60, with the menu
 * button at its far end) and of a message area (700×460: bubbles, names, times), once the engine
 * runs; and the cold start (a new engine reading the header: worker, WASM, both language models).
 * Crops are rendered with ImageMagick and Noto Sans CJK, as test/integration/desktop/ocr.test.ts does.
 * Run: npx vitest bench --run --project unit bench/ocr.bench.ts
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { TesseractOcr, sameText } from '../src/main/desktop/ocr'
import { LatencyRecorder, latencyTable } from './runtime-latency'

const RUNS = 30
const COLD_RUNS = 8
const FONT = 'Noto-Sans-CJK-SC'
const fonts = spawnSync('convert', ['-list', 'font'], { encoding: 'utf8' })
const available = fonts.status === 0 && fonts.stdout.includes(FONT)
if (!available) console.warn('[bench] ocr: ImageMagick or Noto Sans CJK SC is missing (apt-get install imagemagick fonts-noto-cjk); nothing measured')

const recorder = new LatencyRecorder()
const dir = mkdtempSync(join(tmpdir(), 'deskclaw-ocr-bench-'))
let ocr: TesseractOcr
let header: Uint8Array
let messages: Uint8Array

function render(name: string, size: string, background: string, drawing: string[]): Uint8Array {
  const file = join(dir, `${name}.png`)
  const result = spawnSync('convert', ['-size', size, `xc:${background}`, '-font', FONT, ...drawing, file], { encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`convert failed: ${result.stderr}`)
  return readFileSync(file)
}

const text = (x: number, y: number, px: number, colour: string, value: string): string[] => ['-fill', colour, '-pointsize', String(px), '-annotate', `+${x}+${y}`, value]
const box = (colour: string, x0: number, y0: number, x1: number, y1: number): string[] => ['-fill', colour, '-draw', `roundrectangle ${x0},${y0} ${x1},${y1} 4,4`]
const avatar = (x: number, y: number): string[] => ['-fill', '#c8c8c8', '-draw', `rectangle ${x},${y} ${x + 36},${y + 36}`]

/** A WeChat-like conversation: times, white bubbles on the left, green ones on the right, a sender's name. */
function messageArea(): Uint8Array {
  return render('messages', '700x460', '#f5f5f5', [
    ...text(318, 28, 12, '#b2b2b2', '昨天 18:30'),
    ...avatar(20, 50), ...box('#ffffff', 68, 50, 300, 86), ...text(80, 73, 14, '#111111', '明天的评审改到下午三点'),
    ...avatar(644, 106), ...box('#95ec69', 540, 106, 632, 142), ...text(552, 129, 14, '#111111', '好的，收到'),
    ...avatar(20, 166), ...text(68, 178, 12, '#888888', '张伟 (HR)'), ...box('#ffffff', 68, 186, 300, 222), ...text(80, 209, 14, '#111111', '请大家把周报发到群里，谢谢！'),
    ...avatar(644, 246), ...box('#95ec69', 306, 246, 632, 282), ...text(318, 270, 15, '#111111', '今天下午三点开会，请准时参加 [DeskClaw]'),
    ...avatar(20, 306), ...box('#ffffff', 68, 306, 300, 342), ...text(80, 329, 14, '#111111', 'Design review moved to Friday'),
    ...text(330, 378, 12, '#b2b2b2', '14:05'),
    ...avatar(644, 396), ...box('#95ec69', 520, 396, 632, 432), ...text(532, 419, 14, '#111111', '收到 OK')
  ])
}

beforeAll(async () => {
  if (!available) return
  header = render('header', '700x60', '#f5f5f5', [...text(20, 36, 16, '#111111', '产品群（旧）'), ...text(660, 36, 18, '#555555', '···'), '-fill', '#e5e5e5', '-draw', 'line 0,59 700,59'])
  messages = messageArea()
  ocr = new TesseractOcr({ cacheDir: join(dir, 'cache') })
  // Fail loudly if the crops are not read as expected: a fast wrong answer is not a result.
  const read = await ocr.recognize(header)
  if (!sameText(read.lines[0]?.text ?? '', '产品群（旧）')) throw new Error(`the header reads ${JSON.stringify(read.text)}`)
  const area = await ocr.recognize(messages)
  if (!area.lines.some((line) => sameText(line.text, '今天下午三点开会，请准时参加 [DeskClaw]'))) throw new Error(`the message area reads ${JSON.stringify(area.text)}`)
})

afterAll(async () => {
  if (available) {
    console.log(`\nOCR latency (ms):\n${latencyTable(recorder.summaries(RUNS))}\n`)
    await ocr.close()
  }
  rmSync(dir, { recursive: true, force: true })
})

describe.skipIf(!available)('ocr', () => {
  bench('header 700×60, warm', async () => {
    await recorder.time('header 700×60 (warm)', () => ocr.recognize(header))
  }, { iterations: RUNS, warmupIterations: 3 })

  bench('message area 700×460, warm', async () => {
    await recorder.time('message area 700×460 (warm)', () => ocr.recognize(messages))
  }, { iterations: RUNS, warmupIterations: 3 })

  bench('cold start: a new engine reads the header', async () => {
    const cold = new TesseractOcr({ cacheDir: join(dir, 'cache') })
    await recorder.time('cold start + header 700×60', () => cold.recognize(header))
    await cold.close()
  }, { iterations: COLD_RUNS, warmupIterations: 0 })
})
