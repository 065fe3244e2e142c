import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import { cliPath, requireBuiltCli } from '../helpers/cli'
import { openProbeWindow, type ProbeWindow } from '../helpers/probe-window'
import { heldButtons } from '../helpers/x-tools'
import { requireXServer, startDisplay, type TestDisplay } from '../helpers/xvfb'

// The desktop from the terminal on a real display: `deskclaw desktop`, and Ctrl+C in `deskclaw run`
// stopping a drag with the button released (docs/desktop.md, "Stopping").
const available = requireXServer()

describe.skipIf(!available)('deskclaw desktop and Ctrl+C', () => {
  requireBuiltCli()
  let display: TestDisplay
  let probe: ProbeWindow
  const dir = mkdtempSync(join(tmpdir(), 'deskclaw-desktop-cli-'))

  beforeAll(async () => {
    display = await startDisplay()
    probe = await openProbeWindow(display, { title: 'Colours 颜色', mode: 'colours', x: 100, y: 100, width: 400, height: 300 })
  })
  afterAll(async () => {
    await probe?.close()
    await display?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  const cli = (...args: string[]) => spawnSync(process.execPath, [cliPath, ...args], { env: { ...display.env, DESKCLAW_HOME: dir }, encoding: 'utf8', timeout: 30_000 })

  it('desktop screenshot writes a PNG of the screen or one window; desktop windows lists them', async () => {
    const file = join(dir, 'window.png')
    const shot = cli('desktop', 'screenshot', '--window', 'Colours', '-o', file)
    expect(shot.status).toBe(0)
    expect(shot.stdout).toBe(`Saved a 400×300 screenshot of the window "Colours 颜色" to ${file}\n`)
    const { data, info } = await sharp(readFileSync(file)).raw().toBuffer({ resolveWithObject: true })
    expect([info.width, info.height]).toEqual([400, 300])
    expect([...data.subarray(0, 3)]).toEqual([255, 0, 0]) // the top-left quadrant is red

    const scaled = cli('desktop', 'screenshot', '--max-width', '640', '-o', join(dir, 'screen.png'))
    expect(scaled.stdout).toMatch(/^Saved a 640×400 screenshot of the screen \(scaled from 1280×800\)/)

    const json = cli('desktop', 'windows', '--json')
    expect(json.status).toBe(0)
    const windows = JSON.parse(json.stdout) as Array<{ title: string; focused: boolean; bounds: { width: number } }>
    expect(windows).toContainEqual(expect.objectContaining({ title: 'Colours 颜色', focused: true, bounds: expect.objectContaining({ width: 400 }) }))
    expect(cli('desktop', 'windows').stdout).toMatch(/^\* 400×300\+\d+\+\d+ +\S+ +Colours 颜色$/m)

    const missing = cli('desktop', 'screenshot', '--window', 'No such window', '-o', join(dir, 'never.png'))
    expect(missing.status).toBe(1)
    expect(missing.stderr).toMatch(/^deskclaw: No window's title matches "No such window"\. Open windows: "Colours 颜色"/)
  })

  it('Ctrl+C in deskclaw run stops a drag in the middle and releases the button', async () => {
    const { client } = probe.ready
    const server = await startScriptedOpenAI([
      { toolCalls: [{ name: 'mouse_drag', args: { from_x: client.x + 10, from_y: client.y + 10, to_x: client.x + 390, to_y: client.y + 290, duration_ms: 20_000 } }] },
      { text: 'never' }
    ])
    try {
      const child = spawn(process.execPath, [cliPath, 'run', '--base-url', server.url, '--model', 'scripted', '--autonomy', 'full', '--workspace', dir, 'drag'], {
        env: { ...display.env, DESKCLAW_HOME: dir },
        stdio: ['ignore', 'pipe', 'pipe']
      })
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
      while (!(await heldButtons(display)).includes(1)) await new Promise((resolve) => setTimeout(resolve, 10))
      child.kill('SIGINT')
      expect(await exited).toBe(130)
      expect(await heldButtons(display)).toEqual([])
    } finally {
      await server.close()
    }
  })
})
