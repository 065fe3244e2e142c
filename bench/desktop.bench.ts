/**
 * Desktop driver latency on a real X server (Xvfb 1280×800 + openbox), through the driver process:
 * a screenshot (grab + BGRA→RGB + PNG encode in the driver, bytes to the app), a click round trip,
 * and how long a stop takes to release a held button. Run: npx vitest bench --run bench/desktop.bench.ts
 * Needs the X tools .ci/run installs (Xvfb, openbox, ImageMagick); without them it says so and measures nothing.
 */
import { execFileSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { DesktopService } from '../src/main/desktop'
import { openProbeWindow, type ProbeWindow } from '../test/helpers/probe-window'
import { heldButtons } from '../test/helpers/x-tools'
import { hasXServerTools, spawnOwned, startDisplay, stopChild, type TestDisplay } from '../test/helpers/xvfb'
import { LatencyRecorder, latencyTable } from './runtime-latency'

const RUNS = 60
const available = hasXServerTools()
if (!available) console.warn('[bench] desktop: the X tools are missing (apt-get install xvfb openbox imagemagick …); nothing measured')

let display: TestDisplay
let desktop: DesktopService
let probe: ProbeWindow
let wallpaper: ChildProcess | undefined
let wallpapers: { typical: string; noise: string }
const recorder = new LatencyRecorder()
const settings = { screenshotMaxWidth: 1280, desktopFailSafe: false }
let run = 0

beforeAll(async () => {
  if (!available) return
  display = await startDisplay({ shared: false })
  // Two screens: a typical one (an app with a sidebar, a header and a page of text) and pure noise
  // (the worst case for PNG). ImageMagick shows each in a window covering the screen.
  const dir = mkdtempSync(join(tmpdir(), 'deskclaw-bench-'))
  wallpapers = { typical: join(dir, 'typical.png'), noise: join(dir, 'noise.png') }
  const page = readFileSync(join(__dirname, '..', 'README.md'), 'utf8').split('\n').slice(0, 48).join('\n')
  execFileSync('convert', [
    '-size', '1280x800', 'xc:#f5f6f8', '-fill', '#2b2f36', '-draw', 'rectangle 0,0 260,800', '-fill', '#3b82f6', '-draw', 'rectangle 260,0 1280,48',
    '-fill', 'white', '-draw', 'roundrectangle 300,80 1240,760 12,12', '-font', 'DejaVu-Sans', '-pointsize', '12', '-fill', '#1f2328',
    '-annotate', '+320+110', page, wallpapers.typical
  ], { env: display.env })
  execFileSync('convert', ['-size', '1280x800', 'plasma:fractal', '-blur', '0x1', wallpapers.noise], { env: display.env })
  await showWallpaper(wallpapers.typical)
  probe = await openProbeWindow(display, { title: 'Bench canvas', mode: 'canvas', x: 200, y: 150, width: 600, height: 400 })
  desktop = new DesktopService({ env: display.env, settings: () => settings })
  await desktop.screenshot(null, { kind: 'screen' })
})

async function showWallpaper(file: string): Promise<void> {
  if (wallpaper) await stopChild(wallpaper)
  wallpaper = spawnOwned('display', ['-geometry', '+0+0', '-title', 'wallpaper', file], { env: display.env, stdio: 'ignore' })
  await new Promise((resolve) => setTimeout(resolve, 1_000))
}

afterAll(async () => {
  if (!available || !desktop) return
  console.log(`\nDesktop driver latency (ms, last ${RUNS} runs each):\n${latencyTable(recorder.summaries(RUNS))}\n`)
  await desktop.shutdown()
  await probe.close()
  await display.stop()
})

describe.skipIf(!available)('desktop driver', () => {
  bench('screenshot 1280×800, typical screen (grab + encode PNG + transfer)', async () => {
    await recorder.time('screenshot 1280×800, typical screen (grab + PNG + to the app)', () => desktop.screenshot(null, { kind: 'screen' }))
  }, { iterations: RUNS, warmupIterations: 5 })

  bench('screenshot 1280×800 scaled to 640 wide, typical screen', async () => {
    await recorder.time('screenshot 1280×800 scaled to 640, typical screen', () => desktop.screenshot(null, { kind: 'screen' }, 640))
  }, { iterations: RUNS, warmupIterations: 5 })

  bench('screenshot 1280×800, pure noise (worst case)', async () => {
    await recorder.time('screenshot 1280×800, pure noise (worst case for PNG)', () => desktop.screenshot(null, { kind: 'screen' }))
  }, { iterations: RUNS, warmupIterations: 5, setup: () => showWallpaper(wallpapers.noise), teardown: () => showWallpaper(wallpapers.typical) })

  bench('pointer position round trip (IPC only)', async () => {
    await recorder.time('pointer position round trip', () => desktop.cursor(null))
  }, { iterations: RUNS, warmupIterations: 5 })

  bench('click round trip (move, 30 ms hover, press, release)', async () => {
    const { client } = probe.ready
    const at = { x: client.x + 20 + (run++ % 50) * 8, y: client.y + 100 }
    await recorder.time('click round trip (incl. 45 ms of deliberate pauses)', () => desktop.click({ runId: 'bench', conversationId: 'bench' }, at, 'left', false))
  }, { iterations: RUNS, warmupIterations: 5 })

  bench('stop a long drag: abort → button released', async () => {
    const { client } = probe.ready
    const controller = new AbortController()
    const drag = desktop
      .drag({ runId: 'bench', conversationId: 'bench', signal: controller.signal }, { x: client.x + 10, y: client.y + 10 }, { x: client.x + 500, y: client.y + 300 }, 'left', 10_000)
      .catch(() => {})
    // Wait until the X server itself reports the button down (the window may be covered).
    while (!(await heldButtons(display)).includes(1)) await new Promise((resolve) => setTimeout(resolve, 5))
    await recorder.time('abort a drag → button released (driver answered)', async () => {
      controller.abort()
      await drag
    })
  }, { iterations: 30, warmupIterations: 2 })
})
