/**
 * What the driver does, with nut-js (docs/desktop.md, "The driver"). Loaded only after the display
 * was opened once (libnut aborts the process without one). Every input operation checks its abort
 * flag between steps and releases what it pressed before it answers.
 */
import type { DriverOperation, DriverResult, Point, WindowInfo } from '../protocol'
import { encodeGrab } from './encode'
import { X11Windows } from './x11-windows'

/* eslint-disable @typescript-eslint/no-require-imports -- nut-js is loaded late, on purpose */
type Nut = typeof import('@nut-tree-fork/nut-js')

export class OperationError extends Error {
  constructor(
    readonly code: 'aborted' | 'fail_safe' | 'invalid' | 'not_found' | 'unsupported' | 'failed',
    message: string
  ) {
    super(message)
  }
}

/** An operation's abort flag: set by an `abort` request or the fail-safe. */
export interface AbortFlag {
  reason: null | 'aborted' | 'fail_safe'
}

const STEP_MS = 10
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How close to the top-left corner counts as "thrown into it" (docs/desktop.md, "Stopping"). */
export const FAIL_SAFE_CORNER = 1

export const inFailSafeCorner = (at: Point): boolean => at.x <= FAIL_SAFE_CORNER && at.y <= FAIL_SAFE_CORNER

export class DesktopOperations {
  /** Set by the message loop: while on, a long operation checks the pointer before each step. */
  failSafe = false
  private readonly heldKeys = new Set<number>()
  private readonly heldButtons = new Set<number>()

  private constructor(
    private readonly nut: Nut,
    private readonly windowsX11: X11Windows | null,
    private readonly windowsWhyNot: string | undefined
  ) {
    nut.keyboard.config.autoDelayMs = 0
    nut.mouse.config.autoDelayMs = 0
  }

  /** Opens the display first (a clear error instead of libnut's abort), then loads nut-js. */
  static async open(): Promise<DesktopOperations> {
    let windows: X11Windows | null = null
    let whyNot: string | undefined
    if (process.platform === 'linux') {
      windows = await X11Windows.connect() // rejects with "cannot open display …"
      if (!(await windows.hasWindowManager())) {
        whyNot = 'no window manager is running (it publishes the window list)'
      }
    }
    const nut = require('@nut-tree-fork/nut-js') as Nut
    return new DesktopOperations(nut, windows, whyNot)
  }

  async run(operation: DriverOperation, abort: AbortFlag): Promise<unknown> {
    switch (operation.op) {
      case 'hello':
        return this.hello()
      case 'capture':
        return this.capture(operation)
      case 'cursor':
        return this.cursor()
      case 'move':
        await this.setPosition(operation.to)
        return operation.to
      case 'click':
        return this.click(operation, abort)
      case 'drag':
        return this.drag(operation, abort)
      case 'scroll':
        return this.scroll(operation, abort)
      case 'keys':
        await this.tap(operation.keys)
        return {}
      case 'type':
        return this.type(operation, abort)
      case 'windows':
        return this.windows()
      case 'focus_window':
        return this.focusWindow(operation.id)
      case 'release_all':
        await this.releaseAll(operation.everything ?? false)
        return {}
      case 'abort':
      case 'fail_safe':
        return {} // handled by the message loop
    }
  }

  async hello(): Promise<DriverResult<'hello'>> {
    const { screen, Region } = this.nut
    const width = await screen.width()
    const height = await screen.height()
    const probe = await screen.grabRegion(new Region(0, 0, Math.min(8, width), Math.min(8, height)))
    return {
      platform: process.platform,
      displayServer: process.platform === 'linux' ? (process.env.WAYLAND_DISPLAY ? 'xwayland' : 'x11') : process.platform === 'darwin' ? 'macos' : 'windows',
      screen: { width, height, pixelDensity: probe.pixelDensity.scaleX || 1 },
      windows: this.windowsWhyNot ? { available: false, why: this.windowsWhyNot } : { available: true },
      ...(process.platform === 'darwin' ? { permissions: macPermissions() } : {})
    }
  }

  async capture(operation: Extract<DriverOperation, { op: 'capture' }>): Promise<DriverResult<'capture'>> {
    const { screen, Region } = this.nut
    const width = await screen.width()
    const height = await screen.height()
    let area = { x: 0, y: 0, width, height }
    if (operation.region) {
      // Only the part on screen can be grabbed.
      const x = Math.max(0, operation.region.x)
      const y = Math.max(0, operation.region.y)
      const right = Math.min(width, operation.region.x + operation.region.width)
      const bottom = Math.min(height, operation.region.y + operation.region.height)
      if (right <= x || bottom <= y) throw new OperationError('invalid', `the region is not on the screen (${width}×${height})`)
      area = { x, y, width: right - x, height: bottom - y }
    }
    const grab = operation.region ? await screen.grabRegion(new Region(area.x, area.y, area.width, area.height)) : await screen.grab()
    const encoded = await encodeGrab({ width: grab.width, height: grab.height, data: grab.data }, operation.maxWidth)
    return { ...encoded, area, screen: { width, height, pixelDensity: grab.pixelDensity.scaleX || 1 } }
  }

  async cursor(): Promise<Point> {
    const at = await this.nut.mouse.getPosition()
    return { x: Math.round(at.x), y: Math.round(at.y) }
  }

  private async setPosition(to: Point): Promise<void> {
    await this.nut.mouse.setPosition(new this.nut.Point(to.x, to.y))
  }

  private button(name: 'left' | 'right' | 'middle'): number {
    const { Button } = this.nut
    return name === 'left' ? Button.LEFT : name === 'right' ? Button.RIGHT : Button.MIDDLE
  }

  private async press(button: number): Promise<void> {
    this.heldButtons.add(button)
    await this.nut.mouse.pressButton(button)
  }

  private async release(button: number): Promise<void> {
    await this.nut.mouse.releaseButton(button)
    this.heldButtons.delete(button)
  }

  private async click(operation: Extract<DriverOperation, { op: 'click' }>, abort: AbortFlag): Promise<Point> {
    const button = this.button(operation.button)
    await this.setPosition(operation.at)
    await sleep(30) // let the target see the pointer arrive (hover states) before the press
    for (let n = 0; n < (operation.double ? 2 : 1); n++) {
      checkAbort(abort)
      await this.press(button)
      await sleep(15)
      await this.release(button)
      if (operation.double && n === 0) await sleep(60)
    }
    return operation.at
  }

  private async drag(operation: Extract<DriverOperation, { op: 'drag' }>, abort: AbortFlag): Promise<Point> {
    const button = this.button(operation.button)
    await this.setPosition(operation.from)
    await sleep(30)
    checkAbort(abort)
    await this.press(button)
    try {
      const steps = Math.max(2, Math.round(operation.durationMs / STEP_MS))
      for (let step = 1; step <= steps; step++) {
        checkAbort(abort)
        // The user may throw the pointer into the corner between two of our moves: look before each.
        if (this.failSafe && inFailSafeCorner(await this.cursor())) abort.reason = 'fail_safe'
        checkAbort(abort)
        const t = step / steps
        await this.setPosition({
          x: Math.round(operation.from.x + (operation.to.x - operation.from.x) * t),
          y: Math.round(operation.from.y + (operation.to.y - operation.from.y) * t)
        })
        await sleep(STEP_MS)
      }
    } finally {
      // Released on every way out: done, aborted, failed.
      await this.release(button)
    }
    return operation.to
  }

  private async scroll(operation: Extract<DriverOperation, { op: 'scroll' }>, abort: AbortFlag): Promise<object> {
    const { mouse } = this.nut
    if (operation.at) await this.setPosition(operation.at)
    // One notch: a wheel click on X11, 120 units of wheel delta on Windows, some pixels on macOS.
    const unit = process.platform === 'win32' ? 120 : process.platform === 'darwin' ? 20 : 1
    for (let notch = 0; notch < operation.amount; notch++) {
      checkAbort(abort)
      if (operation.direction === 'up') await mouse.scrollUp(unit)
      else if (operation.direction === 'down') await mouse.scrollDown(unit)
      else if (operation.direction === 'left') await mouse.scrollLeft(unit)
      else await mouse.scrollRight(unit)
      await sleep(STEP_MS)
    }
    return {}
  }

  private keyCodes(names: string[]): number[] {
    const { Key } = this.nut
    return names.map((name) => {
      const code = (Key as unknown as Record<string, number>)[name]
      if (typeof code !== 'number') throw new OperationError('invalid', `unknown key ${name}`)
      return code
    })
  }

  /** Presses the keys in order and releases them in reverse, whatever happens in between. */
  private async tap(names: string[]): Promise<void> {
    const codes = this.keyCodes(names)
    const pressed: number[] = []
    try {
      for (const code of codes) {
        this.heldKeys.add(code)
        pressed.push(code)
        await this.nut.keyboard.pressKey(code)
      }
      await sleep(10)
    } finally {
      for (const code of pressed.reverse()) {
        await this.nut.keyboard.releaseKey(code)
        this.heldKeys.delete(code)
      }
    }
  }

  private async type(operation: Extract<DriverOperation, { op: 'type' }>, abort: AbortFlag): Promise<{ typed: number }> {
    let typed = 0
    for (const stroke of operation.strokes) {
      checkAbort(abort)
      await this.tap(stroke)
      typed++
      if (operation.delayMs > 0) await sleep(operation.delayMs)
    }
    return { typed }
  }

  async windows(): Promise<WindowInfo[]> {
    if (this.windowsX11) {
      if (this.windowsWhyNot) throw new OperationError('unsupported', `windows cannot be listed: ${this.windowsWhyNot}`)
      return this.windowsX11.list()
    }
    const { getWindows, getActiveWindow } = this.nut
    const [all, active] = await Promise.all([getWindows(), getActiveWindow().catch(() => null)])
    const activeHandle = active ? (active as unknown as { windowHandle: number }).windowHandle : null
    const windows: WindowInfo[] = []
    for (const window of all) {
      const handle = (window as unknown as { windowHandle: number }).windowHandle
      const [title, region] = await Promise.all([window.title, window.region]).catch(() => ['', null] as const)
      if (!region || region.width <= 1 || region.height <= 1) continue
      windows.push({
        id: String(handle),
        title: String(title),
        app: '',
        bounds: { x: Math.round(region.left), y: Math.round(region.top), width: Math.round(region.width), height: Math.round(region.height) },
        focused: handle === activeHandle
      })
    }
    return windows
  }

  async focusWindow(id: string): Promise<DriverResult<'focus_window'>> {
    const windows = await this.windows()
    const target = windows.find((w) => w.id === id)
    if (!target) throw new OperationError('not_found', `window ${id} is gone`)
    if (this.windowsX11) {
      return { focused: await this.windowsX11.focus(Number(id)), title: target.title }
    }
    const window = (await this.nut.getWindows()).find((w) => String((w as unknown as { windowHandle: number }).windowHandle) === id)
    if (!window) throw new OperationError('not_found', `window ${id} is gone`)
    await window.focus()
    await sleep(100)
    const active = await this.nut.getActiveWindow()
    return { focused: String((active as unknown as { windowHandle: number }).windowHandle) === id, title: target.title }
  }

  /**
   * Releases every key and button this driver pressed and has not released (abort, fail-safe,
   * shutdown); with `everything`, every mouse button and modifier, whoever pressed them.
   */
  async releaseAll(everything = false): Promise<void> {
    if (everything) {
      const { Button, Key } = this.nut
      for (const button of [Button.LEFT, Button.MIDDLE, Button.RIGHT]) this.heldButtons.add(button)
      for (const key of [Key.LeftShift, Key.RightShift, Key.LeftControl, Key.RightControl, Key.LeftAlt, Key.RightAlt, Key.LeftSuper, Key.RightSuper]) {
        this.heldKeys.add(key)
      }
    }
    for (const button of [...this.heldButtons]) await this.release(button).catch(() => {})
    for (const code of [...this.heldKeys]) {
      await this.nut.keyboard.releaseKey(code).catch(() => {})
      this.heldKeys.delete(code)
    }
  }

  holdsInput(): boolean {
    return this.heldButtons.size > 0 || this.heldKeys.size > 0
  }
}

/** The TCC status of the two permissions, read without prompting (the prompt is the user's choice, from doctor's advice). */
function macPermissions(): { accessibility: string; screenRecording: string } {
  try {
    const permissions = require('@nut-tree-fork/node-mac-permissions') as { getAuthStatus(kind: string): string }
    return { accessibility: permissions.getAuthStatus('accessibility'), screenRecording: permissions.getAuthStatus('screen') }
  } catch {
    return { accessibility: 'unknown', screenRecording: 'unknown' }
  }
}

function checkAbort(abort: AbortFlag): void {
  if (abort.reason === 'fail_safe') throw new OperationError('fail_safe', 'stopped: the pointer was thrown into the top-left corner (fail-safe)')
  if (abort.reason === 'aborted') throw new OperationError('aborted', 'stopped')
}
