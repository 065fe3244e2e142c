import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DesktopService, toScreenPoint } from '../../src/main/desktop'
import { createDesktopTools, type AnyTool, type ToolContext, type ToolOutput } from '../../src/main/tools'
import { openProbeWindow, type ProbeEvent, type ProbeWindow } from '../helpers/probe-window'
import { activeWindowName, clipboardText, heldButtons, moveMouse, setClipboardText } from '../helpers/x-tools'
import { requireXServer, startDisplay, type TestDisplay } from '../helpers/xvfb'

// The desktop tools against a real X server and real GTK windows: what the model asks for is what
// the window receives (docs/desktop.md).
const available = requireXServer()

describe.skipIf(!available)('desktop tools on a real X display', () => {
  let display: TestDisplay
  let desktop: DesktopService
  let tools: Map<string, AnyTool>
  const cancelled: string[] = []
  const windows: ProbeWindow[] = []
  const settings = { screenshotMaxWidth: 1280, screenshotsAsk: false, desktopFailSafe: true }

  const open = async (...args: Parameters<typeof openProbeWindow>): Promise<ProbeWindow> => {
    const probe = await openProbeWindow(...args)
    windows.push(probe)
    return probe
  }
  const context = (conversationId = 'conv-1', runId = 'run-1', signal = new AbortController().signal): ToolContext => ({
    workspace: '/tmp',
    conversationId,
    runId,
    callId: `call-${Math.random()}`,
    signal,
    onOutput: () => {}
  })
  const call = async (name: string, args: Record<string, unknown>, ctx = context()): Promise<ToolOutput> => {
    const tool = tools.get(name)
    if (!tool) throw new Error(`no tool ${name}`)
    const parsed = tool.input.parse(args)
    return tool.run(parsed, ctx)
  }
  const preview = async (name: string, args: Record<string, unknown>, conversationId = 'conv-1') => {
    const tool = tools.get(name)!
    return tool.preview(tool.input.parse(args), { workspace: '/tmp', conversationId })
  }
  const pixel = async (png: Uint8Array, x: number, y: number): Promise<[number, number, number]> => {
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true })
    const i = (y * info.width + x) * info.channels
    return [data[i]!, data[i + 1]!, data[i + 2]!]
  }
  const newEvents = (probe: ProbeWindow, before: number) => (predicate: (event: ProbeEvent) => boolean) =>
    probe.waitFor((event, index) => index >= before && predicate(event))

  beforeAll(async () => {
    display = await startDisplay()
    desktop = new DesktopService({ env: display.env, settings: () => settings, cancelRun: (runId) => cancelled.push(runId) })
    const source = createDesktopTools({ desktop, settings: () => settings })
    tools = new Map(source.tools().map((tool) => [tool.name, tool]))
  })
  afterEach(async () => {
    await Promise.all(windows.splice(0).map((probe) => probe.close()))
    desktop.runEnded('run-1')
    desktop.runEnded('run-2')
  })
  afterAll(async () => {
    await desktop?.shutdown()
    await display?.stop()
  })

  it('a screenshot of a window of known colours has them at the expected, scaled points', async () => {
    const probe = await open(display, { title: 'Colours 颜色', mode: 'colours', x: 200, y: 150, width: 400, height: 300 })
    const { client } = probe.ready
    const quadrants: Array<[number, number, [number, number, number]]> = [
      [client.x + 100, client.y + 75, [255, 0, 0]],
      [client.x + 300, client.y + 75, [0, 255, 0]],
      [client.x + 100, client.y + 225, [0, 0, 255]],
      [client.x + 300, client.y + 225, [255, 255, 0]]
    ]

    // The whole screen, scaled to half: each screen point is at half its coordinates in the image.
    const result = await call('screenshot', { max_width: display.width / 2 })
    expect(result.isError).toBe(false)
    expect(result.forLlm).toContain(`${display.width / 2}×${display.height / 2} pixels`)
    expect(result.forLlm).toContain('scale 2 screen pixels per image pixel')
    const image = result.attachments?.[0]
    expect(image).toMatchObject({ kind: 'image', mediaType: 'image/png', width: display.width / 2, height: display.height / 2 })
    for (const [x, y, colour] of quadrants) expect(await pixel(image!.data, Math.floor(x / 2), Math.floor(y / 2))).toEqual(colour)

    // One window by title: the image is its client area, unscaled.
    const shot = await call('screenshot', { window: 'Colours' })
    expect(shot.isError).toBe(false)
    expect(shot.attachments?.[0]).toMatchObject({ width: 400, height: 300 })
    for (const [x, y, colour] of quadrants) expect(await pixel(shot.attachments![0]!.data, x - client.x, y - client.y)).toEqual(colour)
  })

  it('clicks and drags land where the model asked, in the pixels of its last screenshot', async () => {
    const probe = await open(display, { title: 'Canvas', mode: 'canvas', x: 120, y: 100, width: 500, height: 400 })
    const { client } = probe.ready
    const shot = await call('screenshot', { max_width: display.width / 2 })
    expect(shot.isError).toBe(false)
    const frame = desktop.lastFrame('conv-1')!
    const screen = { width: display.width, height: display.height }

    // A point inside the canvas, as the model reads it off the half-size image.
    const asked = { x: Math.floor((client.x + 150) / 2), y: Math.floor((client.y + 120) / 2) }
    const expected = toScreenPoint(asked, frame, screen)
    let before = probe.events.length
    const clicked = await call('mouse_click', { ...asked, button: 'left' })
    expect(clicked.isError).toBe(false)
    expect(await newEvents(probe, before)((e) => e.event === 'press')).toMatchObject({ button: 1, x_root: expected.x, y_root: expected.y })
    expect(Math.abs(expected.x - (client.x + 150))).toBeLessThanOrEqual(2)

    before = probe.events.length
    expect((await call('mouse_click', { ...asked, button: 'right' })).isError).toBe(false)
    expect(await newEvents(probe, before)((e) => e.event === 'press')).toMatchObject({ button: 3, x_root: expected.x, y_root: expected.y })

    before = probe.events.length
    expect((await call('mouse_click', { ...asked, double: true })).isError).toBe(false)
    await newEvents(probe, before)((e) => e.event === 'double-press')
    await probe.waitFor((e, index) => index > before && e.event === 'release' && probe.events.slice(before, index).filter((p) => p.event === 'press').length === 2)

    const from = { x: Math.floor((client.x + 60) / 2), y: Math.floor((client.y + 60) / 2) }
    const to = { x: Math.floor((client.x + 400) / 2), y: Math.floor((client.y + 300) / 2) }
    const [screenFrom, screenTo] = [toScreenPoint(from, frame, screen), toScreenPoint(to, frame, screen)]
    before = probe.events.length
    const dragged = await call('mouse_drag', { from_x: from.x, from_y: from.y, to_x: to.x, to_y: to.y, duration_ms: 200 })
    expect(dragged.isError).toBe(false)
    const wait = newEvents(probe, before)
    expect(await wait((e) => e.event === 'press')).toMatchObject({ button: 1, x_root: screenFrom.x, y_root: screenFrom.y })
    expect(await wait((e) => e.event === 'release')).toMatchObject({ button: 1, x_root: screenTo.x, y_root: screenTo.y })
    const held = probe.events.slice(before).filter((e): e is Extract<ProbeEvent, { event: 'motion' }> => e.event === 'motion' && e.buttons.includes(1))
    expect(held.length).toBeGreaterThan(0)

    // Off the screenshot: an error result that says its size, and nothing is clicked.
    before = probe.events.length
    const outside = await call('mouse_click', { x: display.width, y: 10 })
    expect(outside.isError).toBe(true)
    expect(outside.forLlm).toMatch(/outside the last screenshot, which is 640×400 pixels/)
    await expect(preview('mouse_click', { x: -5, y: 10 })).rejects.toThrow(/outside the last screenshot/)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(probe.events.slice(before).some((e) => e.event === 'press')).toBe(false)

    // The approval shows the last screenshot with the point marked.
    const question = await preview('mouse_click', { ...asked })
    expect(question.image?.mediaType).toBe('image/jpeg')
    expect(Buffer.from(question.image!.data, 'base64').length).toBeGreaterThan(1000)
  })

  it('type_text enters Chinese, emoji and ASCII exactly, and the clipboard holds what it held before', async () => {
    const probe = await open(display, { title: 'Entry', mode: 'entry', x: 150, y: 150, width: 420, height: 80 })
    await setClipboardText(display, 'what the user copied 之前')
    const typed = await call('type_text', { text: '你好，世界 👋 ok' })
    expect(typed.isError).toBe(false)
    await probe.waitFor((e) => e.event === 'text' && e.text === '你好，世界 👋 ok')
    expect(probe.lastText()).toBe('你好，世界 👋 ok')
    expect(await clipboardText(display)).toBe('what the user copied 之前')

    // Select all and delete, then type ASCII with shifted punctuation key by key.
    expect((await call('key_press', { keys: 'ctrl+a' })).isError).toBe(false)
    expect((await call('key_press', { keys: 'BackSpace'.toLowerCase() })).isError).toBe(false)
    await probe.waitFor((e) => e.event === 'text' && e.text === '')
    const keys = await call('type_text', { text: 'Hello, World! (1+2)=3 ~ok?', method: 'keys' })
    expect(keys.forLlm).toContain('key by key')
    await probe.waitFor((e) => e.event === 'text' && e.text === 'Hello, World! (1+2)=3 ~ok?')
    expect(await heldButtons(display)).toEqual([])
  })

  it('window_focus picks the exact window and refuses an ambiguous title, listing the candidates', async () => {
    await open(display, { title: 'Report 报告 draft', mode: 'entry', x: 40, y: 40, width: 300, height: 80 })
    await open(display, { title: 'Report 报告 final', mode: 'entry', x: 400, y: 40, width: 300, height: 80 })
    await open(display, { title: 'Notes', mode: 'entry', x: 40, y: 300, width: 300, height: 80 })

    const list = await call('window_list', {})
    expect(list.forLlm).toContain('"Report 报告 draft"')
    expect(list.forLlm).toMatch(/\* "Notes"/) // the last opened has the focus

    const ambiguous = await call('window_focus', { title: 'Report 报告' })
    expect(ambiguous.isError).toBe(true)
    expect(ambiguous.forLlm).toContain('matches 2 windows')
    expect(ambiguous.forLlm).toContain('"Report 报告 draft"')
    expect(ambiguous.forLlm).toContain('"Report 报告 final"')
    expect(await activeWindowName(display)).toBe('Notes')

    const exact = await call('window_focus', { title: 'Report 报告 draft' })
    expect(exact.isError).toBe(false)
    expect(await activeWindowName(display)).toBe('Report 报告 draft')
    expect((await call('window_focus', { title: 'final' })).isError).toBe(false)
    expect(await activeWindowName(display)).toBe('Report 报告 final')
    const none = await call('window_focus', { title: 'Spreadsheet' })
    expect(none.forLlm).toMatch(/No window's title matches "Spreadsheet"/)
  })

  it('one run drives the input at a time: a second run is told who holds it', async () => {
    const probe = await open(display, { title: 'Canvas', mode: 'canvas', x: 100, y: 100, width: 500, height: 400 })
    const { client } = probe.ready
    const long = call('mouse_drag', { from_x: client.x + 20, from_y: client.y + 20, to_x: client.x + 300, to_y: client.y + 300, duration_ms: 1500 }, context('conv-2', 'run-1'))
    await probe.waitFor((e) => e.event === 'press')
    const other = await call('mouse_click', { x: client.x + 50, y: client.y + 50 }, context('conv-3', 'run-2'))
    expect(other.isError).toBe(true)
    expect(other.forLlm).toMatch(/^desktop busy \(run run-1 in conversation conv-2/)
    expect((await long).isError).toBe(false)
    expect(desktop.controlling()?.runId).toBe('run-1')
    desktop.runEnded('run-1')
    expect(desktop.controlling()).toBeNull()
    expect((await call('mouse_click', { x: client.x + 50, y: client.y + 50 }, context('conv-3', 'run-2'))).isError).toBe(false)
  })

  it('stopping a long drag releases the button: by the run\'s signal, and by the fail-safe corner', async () => {
    const probe = await open(display, { title: 'Canvas', mode: 'canvas', x: 100, y: 100, width: 500, height: 400 })
    const { client } = probe.ready
    const drag = { from_x: client.x + 20, from_y: client.y + 20, to_x: client.x + 480, to_y: client.y + 380, duration_ms: 20_000 }

    const controller = new AbortController()
    let before = probe.events.length
    const stopped = call('mouse_drag', drag, context('conv-4', 'run-1', controller.signal))
    await newEvents(probe, before)((e) => e.event === 'press')
    expect(await heldButtons(display)).toEqual([1])
    controller.abort()
    const result = await stopped
    expect(result.isError).toBe(true)
    expect(result.forLlm).toMatch(/stopped/)
    await newEvents(probe, before)((e) => e.event === 'release' && e.button === 1)
    expect(await heldButtons(display)).toEqual([])
    desktop.runEnded('run-1')

    // The user throws the pointer into the top-left corner: the drag stops, the run is cancelled.
    before = probe.events.length
    const thrown = call('mouse_drag', drag, context('conv-4', 'run-1'))
    await newEvents(probe, before)((e) => e.event === 'press')
    await new Promise((resolve) => setTimeout(resolve, 100))
    await moveMouse(display, 0, 0)
    const failSafe = await thrown
    expect(failSafe.isError).toBe(true)
    expect(failSafe.forLlm).toMatch(/fail-safe/)
    expect(await heldButtons(display)).toEqual([])
    expect(cancelled).toContain('run-1')

    // A point in the corner is refused while the fail-safe is on: the pointer there would stop everything.
    const corner = await call('mouse_move', { x: 0, y: 0 }, context('conv-5', 'run-2'))
    expect(corner.forLlm).toMatch(/fail-safe corner/)
  })

  it('the clipboard tools read and write text; cursor_position says where the pointer is in the screenshot', async () => {
    expect((await call('clipboard_write', { text: '剪贴板 clipboard ✓' })).isError).toBe(false)
    expect(await clipboardText(display)).toBe('剪贴板 clipboard ✓')
    expect((await call('clipboard_read', {})).forLlm).toBe('剪贴板 clipboard ✓')

    await call('screenshot', { max_width: display.width / 2 }, context('conv-6'))
    await moveMouse(display, 301, 201)
    expect((await call('cursor_position', {}, context('conv-6'))).forLlm).toBe('The pointer is at (150, 100) in your last screenshot, (301, 201) on the screen.')
  })

  it('a driver that crashes mid-action answers "desktop unavailable" and is started again on the next call', async () => {
    const probe = await open(display, { title: 'Canvas', mode: 'canvas', x: 100, y: 100, width: 500, height: 400 })
    const { client } = probe.ready
    const drag = call('mouse_drag', { from_x: client.x + 20, from_y: client.y + 20, to_x: client.x + 400, to_y: client.y + 300, duration_ms: 10_000 }, context('conv-7', 'run-1'))
    await probe.waitFor((e) => e.event === 'press')
    const pid = await desktop.driver.pid()
    expect(pid).toBeGreaterThan(0)
    process.kill(pid!, 'SIGSEGV')
    const crashed = await drag
    expect(crashed.isError).toBe(true)
    expect(crashed.forLlm).toMatch(/^desktop unavailable: the desktop driver stopped \(signal SIGSEGV\).*it starts again on the next call$/)
    desktop.runEnded('run-1')
    // The new driver released what the dead one held, without waiting for the next call.
    await probe.waitFor((e) => e.event === 'release' && e.button === 1)
    expect(await heldButtons(display)).toEqual([])

    const afterCrash = await call('cursor_position', {})
    expect(afterCrash.isError).toBe(false)
    expect(await desktop.driver.pid()).not.toBe(pid)
  })
})
