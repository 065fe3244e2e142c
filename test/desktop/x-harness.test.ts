import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openProbeWindow, type ProbeWindow } from '../helpers/probe-window'
import { activeWindowName, click, clipboardText, heldButtons, heldKeys, key, moveMouse, pixelAt, pointer, setClipboardText, xdotool } from '../helpers/x-tools'
import { requireXServer, startDisplay, type TestDisplay } from '../helpers/xvfb'

// The harness itself, proved against the X server with xdotool / xclip / ImageMagick, so that a
// failing desktop test can blame the code under test rather than the harness.
const available = requireXServer()

describe.skipIf(!available)('X test harness', () => {
  let display: TestDisplay
  const windows: ProbeWindow[] = []
  const open = async (...args: Parameters<typeof openProbeWindow>): Promise<ProbeWindow> => {
    const probe = await openProbeWindow(...args)
    windows.push(probe)
    return probe
  }

  beforeAll(async () => {
    display = await startDisplay()
  })
  afterAll(async () => {
    await Promise.all(windows.map((probe) => probe.close()))
    await display?.stop()
  })

  it('a click at a point computed from ready.client arrives there, and the pointer is there', async () => {
    const probe = await open(display, { title: 'harness canvas', mode: 'canvas', x: 60, y: 80, width: 360, height: 240 })
    const { client } = probe.ready
    expect(client).toMatchObject({ width: 360, height: 240 })
    expect(client.x).toBeGreaterThanOrEqual(60)
    expect(client.y).toBeGreaterThanOrEqual(80)
    expect(await activeWindowName(display)).toBe('harness canvas')

    const target = { x: client.x + 37, y: client.y + 53 }
    await click(display, 1, target)
    const press = await probe.waitFor((event) => event.event === 'press')
    expect(press).toMatchObject({ button: 1, x_root: target.x, y_root: target.y })
    await probe.waitFor((event) => event.event === 'release' && event.button === 1)
    expect(await pointer(display)).toEqual(target)

    // Held buttons, as the server sees them and as the window sees them during a drag.
    const before = probe.events.length
    await xdotool(display, 'mousedown', '3')
    expect(await heldButtons(display)).toEqual([3])
    await moveMouse(display, target.x + 100, target.y + 20)
    const motion = await probe.waitFor((event, index) => index >= before && event.event === 'motion' && event.x_root === target.x + 100)
    expect(motion).toMatchObject({ y_root: target.y + 20, buttons: [3] })
    await xdotool(display, 'mouseup', '3')
    await probe.waitFor((event, index) => index >= before && event.event === 'release' && event.button === 3)
    expect(await heldButtons(display)).toEqual([])

    // Held keys: Shift_L down is seen by the server; the window sees the key with its modifiers.
    await xdotool(display, 'keydown', 'shift')
    expect((await heldKeys(display)).length).toBe(1)
    await key(display, 'a')
    await xdotool(display, 'keyup', 'shift')
    const shifted = await probe.waitFor((event) => event.event === 'key' && event.keyval_name === 'A')
    expect(shifted).toMatchObject({ state: ['shift'] })
    expect(await heldKeys(display)).toEqual([])

    // Wheel: button 5 is one scroll step down.
    await click(display, 5)
    await probe.waitFor((event) => event.event === 'scroll' && event.direction === 'down')
  })

  it('pastes non-ASCII text set with setClipboardText into a focused entry with ctrl+v', async () => {
    const probe = await open(display, { title: 'harness entry', mode: 'entry', x: 480, y: 80, width: 320, height: 60 })
    expect(await activeWindowName(display)).toBe('harness entry')
    await setClipboardText(display, 'héllo 你好')
    expect(await clipboardText(display)).toBe('héllo 你好')

    await key(display, 'ctrl+v')
    await probe.waitFor((event) => event.event === 'text' && event.text === 'héllo 你好')
    expect(probe.lastText()).toBe('héllo 你好')
    const paste = probe.events.find((event) => event.event === 'key' && event.keyval_name === 'v')
    expect(paste).toMatchObject({ state: ['control'] })
  })

  it('paints exact colours in the four quadrants of a colours window', async () => {
    const probe = await open(display, { title: 'harness colours', mode: 'colours', x: 200, y: 380, width: 400, height: 300 })
    const { x, y, width, height } = probe.ready.client
    const at = (fx: number, fy: number): Promise<string> => pixelAt(display, Math.round(x + width * fx), Math.round(y + height * fy))
    expect(await at(0.25, 0.25)).toBe('#ff0000')
    expect(await at(0.75, 0.25)).toBe('#00ff00')
    expect(await at(0.25, 0.75)).toBe('#0000ff')
    expect(await at(0.75, 0.75)).toBe('#ffff00')
    // The exact corners of the client area belong to the window: the reported origin is not off by the frame.
    expect(await pixelAt(display, x, y)).toBe('#ff0000')
    expect(await pixelAt(display, x + width - 1, y + height - 1)).toBe('#ffff00')
    expect(await pixelAt(display, x - 1, y + height - 1)).not.toBe('#0000ff')

    const target = { x: x + width - 10, y: y + 10 }
    await click(display, 1, target)
    expect(await probe.waitFor((event) => event.event === 'press')).toMatchObject({ x_root: target.x, y_root: target.y })
  })

  it('a private display (shared: false) has the requested size and is gone after stop()', async () => {
    const own = await startDisplay({ shared: false, width: 640, height: 480 })
    try {
      expect(own.display).not.toBe(display.display)
      expect(own.env.DISPLAY).toBe(own.display)
      expect(own.env.WAYLAND_DISPLAY).toBeUndefined()
      const info = await new Promise<string>((resolve, reject) =>
        execFile('xdpyinfo', ['-display', own.display], { env: own.env }, (error, stdout) => (error ? reject(error) : resolve(stdout)))
      )
      expect(info).toMatch(/dimensions:\s+640x480 pixels/)
      expect({ width: own.width, height: own.height }).toEqual({ width: 640, height: 480 })
    } finally {
      await own.stop()
    }
    expect(existsSync(`/tmp/.X${own.display.slice(1)}-lock`)).toBe(false)
  })
})
