/**
 * Desktop automation as the app offers it (docs/desktop.md): the driver process, the input lock,
 * each conversation's last screenshot, the clipboard, and the three ways to stop (cancel, the global
 * shortcut, the fail-safe corner). Tools and the CLI go through this, never to the driver directly.
 */
import type { Settings } from '../../shared'
import type { AppService } from '../lifecycle'
import { ClipboardUnavailableError, systemClipboard, type ClipboardSnapshot, type DesktopClipboard } from './clipboard'
import { checkDisplay } from './display'
import { DesktopDriver, DesktopUnavailableError, DriverOperationError } from './driver-host'
import type { DriverLauncher } from './driver-launcher'
import { FrameMemory, PointOutsideError, toFramePoint, toScreenPoint, type Frame } from './frames'
import { InputLease, type LeaseHolder } from './input-lease'
import { parseKeyCombo, textToKeyStrokes, typeableAsKeys } from './keys'
import type { DesktopCaller, Operator, Screenshot, ScreenshotTarget } from './operator'
import type { MouseButton, Point, Rect, ScrollDirection, WindowInfo } from './protocol'

export const DEFAULT_SCREENSHOT_MAX_WIDTH = 1280
export const DEFAULT_STOP_SHORTCUT = 'Ctrl+Alt+Escape'
/** After a paste, how long the target app has to fetch the clipboard before the old contents go back. */
const PASTE_SETTLE_MS = 250
/** After the clipboard changes, how long apps get to notice before a paste (see pasteText). */
const CLIPBOARD_NOTICE_MS = 120
const TYPE_DELAY_MS = 8

/** Another run holds the keyboard and mouse. */
export class DesktopBusyError extends Error {
  constructor(readonly holder: LeaseHolder) {
    super(`desktop busy (run ${holder.runId} in conversation ${holder.conversationId} is controlling the keyboard and mouse); try again when it has finished`)
  }
}

/** A failure the model and the user can read; never a stack trace. */
export class DesktopActionError extends Error {}

export interface DesktopServiceOptions {
  driver?: DesktopDriver
  /** How the driver process is started when no driver is given (Electron: utilityProcess). */
  launcher?: DriverLauncher
  /** The clipboard (Electron's in the app); default: the platform's clipboard commands. */
  clipboard?: () => DesktopClipboard
  settings: () => Pick<Settings, 'screenshotMaxWidth' | 'desktopFailSafe'>
  /** Stops a run (the lease holder's, on the shortcut or the fail-safe). */
  cancelRun?: (runId: string) => void
  env?: NodeJS.ProcessEnv
  platform?: NodeJS.Platform
}

export type StopReason = 'shortcut' | 'fail_safe' | 'user'

export class DesktopService implements AppService, Operator {
  readonly name = 'desktop'
  readonly driver: DesktopDriver
  readonly lease = new InputLease()
  private readonly frames = new FrameMemory()
  private readonly stopListeners = new Set<(reason: StopReason, holder: LeaseHolder | null) => void>()
  private readonly platform: NodeJS.Platform
  private clipboardCache: DesktopClipboard | null = null

  constructor(private readonly options: DesktopServiceOptions) {
    this.platform = options.platform ?? process.platform
    this.driver = options.driver ?? new DesktopDriver({ env: options.env, platform: this.platform, launcher: options.launcher })
    this.driver.onFailSafe(() => this.stop('fail_safe'))
    this.lease.onChange((holder) => {
      // The corner is watched only while a run holds the input.
      void this.driver.setFailSafe(holder !== null && this.options.settings().desktopFailSafe).catch(() => {})
    })
  }

  /**
   * Throws "desktop unavailable: …" when the desktop cannot be used (starting the driver if it is
   * not running). Input tools call it in their previews, so nobody is asked to approve an action
   * that cannot happen.
   */
  async ready(): Promise<void> {
    await this.call(() => this.driver.hello())
  }

  /** The same for the clipboard tools: under Node the clipboard needs the display. */
  clipboardReady(): void {
    this.checkClipboardDisplay()
  }

  // ---- reads ----

  async screenshot(conversationId: string | null, target: ScreenshotTarget, maxWidth = this.options.settings().screenshotMaxWidth): Promise<Screenshot> {
    let region: Rect | undefined
    let window: WindowInfo | undefined
    if (target.kind === 'window') {
      window = await this.findWindow(target.title)
      region = window.bounds
    } else if (target.kind === 'region') {
      region = target.rect
    }
    const capture = await this.call(() => this.driver.request({ op: 'capture', maxWidth, ...(region ? { region } : {}) }))
    const shot: Screenshot = {
      png: capture.png,
      width: capture.width,
      height: capture.height,
      area: capture.area,
      scale: capture.area.width / capture.width,
      screen: { width: capture.screen.width, height: capture.screen.height },
      ...(window ? { window } : {})
    }
    if (conversationId) this.frames.remember(conversationId, { area: capture.area, width: capture.width, height: capture.height, png: capture.png, takenAt: Date.now() })
    return shot
  }

  lastFrame(conversationId: string): Frame | undefined {
    return this.frames.last(conversationId)
  }

  async windows(): Promise<WindowInfo[]> {
    return this.call(() => this.driver.request({ op: 'windows' }))
  }

  /** The window whose title matches exactly, else the one whose title contains the text; several → an error listing them. */
  async findWindow(title: string): Promise<WindowInfo> {
    const windows = (await this.windows()).filter((w) => w.bounds.width > 0 && w.bounds.height > 0)
    const exact = windows.filter((w) => w.title === title)
    const matches = exact.length > 0 ? exact : windows.filter((w) => w.title.toLowerCase().includes(title.toLowerCase()))
    if (matches.length === 1) return matches[0]!
    const list = (ws: WindowInfo[]) => ws.map((w) => `"${w.title}"${w.app ? ` (${w.app})` : ''}`).join(', ')
    if (matches.length === 0) {
      throw new DesktopActionError(`No window's title matches "${title}". Open windows: ${list(windows.filter((w) => w.title)) || 'none'}.`)
    }
    throw new DesktopActionError(`"${title}" matches ${matches.length} windows: ${list(matches)}. Give the exact title of one.`)
  }

  async cursor(conversationId: string | null): Promise<{ screen: Point; inScreenshot: Point | null; frame: Frame | undefined }> {
    const screen = await this.call(() => this.driver.request({ op: 'cursor' }))
    const frame = conversationId ? this.frames.last(conversationId) : undefined
    return { screen, inScreenshot: frame ? toFramePoint(screen, frame) : null, frame }
  }

  /** A point the model gave (pixels of its last screenshot) in screen pixels; an error when off the image or the screen. */
  async screenPoint(conversationId: string, point: Point): Promise<Point> {
    const hello = await this.call(() => this.driver.hello())
    try {
      const mapped = toScreenPoint(point, this.frames.last(conversationId), hello.screen)
      if (this.options.settings().desktopFailSafe && mapped.x <= 1 && mapped.y <= 1) {
        throw new PointOutsideError(`(${point.x}, ${point.y}) is the fail-safe corner: the pointer there stops desktop control. Pick a point at least 2 pixels away.`)
      }
      return mapped
    } catch (error) {
      if (error instanceof PointOutsideError) throw new DesktopActionError(error.message)
      throw error
    }
  }

  // ---- input: under the lease ----

  async move(caller: DesktopCaller, to: Point): Promise<Point> {
    return this.withInput(caller, () => this.driver.request({ op: 'move', to }, { signal: caller.signal }))
  }

  async click(caller: DesktopCaller, at: Point, button: MouseButton, double: boolean): Promise<Point> {
    return this.withInput(caller, () => this.driver.request({ op: 'click', at, button, double }, { signal: caller.signal }))
  }

  async drag(caller: DesktopCaller, from: Point, to: Point, button: MouseButton, durationMs: number): Promise<Point> {
    return this.withInput(caller, () =>
      this.driver.request({ op: 'drag', from, to, button, durationMs }, { signal: caller.signal, timeoutMs: durationMs + 10_000 })
    )
  }

  async scroll(caller: DesktopCaller, direction: ScrollDirection, amount: number, at?: Point): Promise<void> {
    await this.withInput(caller, () => this.driver.request({ op: 'scroll', direction, amount, ...(at ? { at } : {}) }, { signal: caller.signal }))
  }

  /** Presses a combination such as `ctrl+shift+t` (`mod` = Ctrl, or Cmd on macOS). */
  async pressKeys(caller: DesktopCaller, combo: string): Promise<string[]> {
    const keys = this.parseCombo(combo)
    await this.withInput(caller, () => this.driver.request({ op: 'keys', keys }, { signal: caller.signal }))
    return keys
  }

  parseCombo(combo: string): string[] {
    try {
      return parseKeyCombo(combo, this.platform)
    } catch (error) {
      throw new DesktopActionError((error as Error).message)
    }
  }

  /**
   * Enters text into the focused field: printable ASCII as key strokes when asked for, everything
   * else by paste (nut-js garbles non-ASCII typing), with the clipboard restored afterwards.
   */
  async typeText(caller: DesktopCaller, text: string, method: 'auto' | 'paste' | 'keys'): Promise<{ method: 'paste' | 'keys'; clipboardRestored?: string }> {
    const useKeys = method === 'keys' || (method === 'auto' && /^[A-Za-z0-9 ]*$/.test(text))
    if (useKeys) {
      if (!typeableAsKeys(text)) throw new DesktopActionError('Only printable ASCII can be typed as keys; use method "paste" (or "auto") for this text.')
      const strokes = textToKeyStrokes(text)
      await this.withInput(caller, () =>
        this.driver.request({ op: 'type', strokes, delayMs: TYPE_DELAY_MS }, { signal: caller.signal, timeoutMs: 10_000 + strokes.length * 50 })
      )
      return { method: 'keys' }
    }
    return this.withInput(caller, async () => {
      const clipboard = this.clipboard()
      const saved = await this.clipboardCall(() => clipboard.save())
      try {
        await this.clipboardCall(() => clipboard.writeText(text))
        await this.driver.request({ op: 'keys', keys: parseKeyCombo('mod+v', this.platform) }, { signal: caller.signal })
        await new Promise((resolve) => setTimeout(resolve, PASTE_SETTLE_MS))
      } finally {
        await saved.restore().catch(() => {})
      }
      return { method: 'paste', clipboardRestored: saved.description }
    })
  }

  async focusWindow(caller: DesktopCaller, title: string): Promise<WindowInfo> {
    return this.focus(caller, await this.findWindow(title))
  }

  /** Brings this window (from windows()) to the front. */
  async focus(caller: DesktopCaller, window: WindowInfo): Promise<WindowInfo> {
    return this.withInput(caller, async () => {
      const result = await this.driver.request({ op: 'focus_window', id: window.id }, { signal: caller.signal })
      if (!result.focused) throw new DesktopActionError(`The window manager did not bring "${window.title}" to the front.`)
      return window
    })
  }

  /**
   * Pastes `text` into the focused field and leaves it on the clipboard: for a task that pastes
   * several times and restores the clipboard once at its end (see saveClipboard). `meanwhile` runs
   * while apps notice the new clipboard (e.g. the keys that focus the field); `settleMs` is the wait
   * after the paste — 0 for a task that waits for the window to show it instead.
   */
  async pasteText(caller: DesktopCaller, text: string, options: { meanwhile?: () => Promise<void>; settleMs?: number } = {}): Promise<void> {
    await this.withInput(caller, async () => {
      await this.clipboardCall(() => this.clipboard().writeText(text))
      // Apps learn of a new clipboard owner asynchronously (Chromium caches the old contents until
      // the X server's notice arrives): pasting at once sometimes pasted the previous text.
      const written = Date.now()
      await options.meanwhile?.()
      const notice = CLIPBOARD_NOTICE_MS - (Date.now() - written)
      if (notice > 0) await new Promise((resolve) => setTimeout(resolve, notice))
      await this.driver.request({ op: 'keys', keys: parseKeyCombo('mod+v', this.platform) }, { signal: caller.signal })
      const settle = options.settleMs ?? PASTE_SETTLE_MS
      if (settle > 0) await new Promise((resolve) => setTimeout(resolve, settle))
    })
  }

  // ---- clipboard ----

  /** What the clipboard holds now, to put back later (every format the clipboard backend keeps). */
  async saveClipboard(): Promise<ClipboardSnapshot> {
    return this.clipboardCall(() => this.clipboard().save())
  }

  async readClipboard(): Promise<string> {
    return this.clipboardCall(() => this.clipboard().readText())
  }

  async writeClipboard(text: string): Promise<void> {
    await this.clipboardCall(() => this.clipboard().writeText(text))
  }

  // ---- stopping ----

  /** Who holds the keyboard and mouse now (the banner shows it). */
  controlling(): LeaseHolder | null {
    return this.lease.current()
  }

  onControlChange(listener: (holder: LeaseHolder | null) => void): () => void {
    return this.lease.onChange(listener)
  }

  onStop(listener: (reason: StopReason, holder: LeaseHolder | null) => void): () => void {
    this.stopListeners.add(listener)
    return () => this.stopListeners.delete(listener)
  }

  /** Stops desktop control now: the holding run is cancelled and every held key and button released. */
  stop(reason: StopReason): LeaseHolder | null {
    const holder = this.lease.current()
    if (holder) {
      this.options.cancelRun?.(holder.runId)
      // Its signal is aborted, so it cannot act again; the banner goes at once, not when the run has wound down.
      this.lease.release(holder.runId)
    }
    void this.driver.releaseAll()
    for (const listener of this.stopListeners) listener(reason, holder)
    return holder
  }

  /** A run ended: it no longer holds the input. */
  runEnded(runId: string): void {
    this.lease.release(runId)
  }

  conversationClosed(conversationId: string): void {
    this.frames.forget(conversationId)
  }

  async shutdown(): Promise<void> {
    await this.driver.close()
  }

  private async withInput<T>(caller: DesktopCaller, action: () => Promise<T>): Promise<T> {
    if (caller.signal?.aborted) throw new DesktopActionError('stopped before it started')
    const attempt = this.lease.acquire(caller.runId, caller.conversationId)
    if (!attempt.ok) throw new DesktopBusyError(attempt.holder)
    return this.call(action)
  }

  /** Driver failures in words: unavailable, stopped, fail-safe. */
  private async call<T>(action: () => Promise<T>): Promise<T> {
    try {
      return await action()
    } catch (error) {
      if (error instanceof DriverOperationError) {
        if (error.code === 'aborted') throw new DesktopActionError('stopped: every held key and mouse button was released')
        if (error.code === 'fail_safe') throw new DesktopActionError(`${error.message}; every held key and mouse button was released`)
        throw new DesktopActionError(error.message)
      }
      throw error
    }
  }

  private checkClipboardDisplay(): void {
    if (this.options.clipboard) return
    // Under Node the clipboard is the display's: without one, say so as every desktop tool does.
    const display = checkDisplay(this.options.env ?? process.env, this.platform)
    if (!display.usable) throw new DesktopUnavailableError(`${display.why}${display.fix ? `; ${display.fix}` : ''}`)
  }

  private clipboard(): DesktopClipboard {
    if (this.options.clipboard) return this.options.clipboard()
    return (this.clipboardCache ??= systemClipboard(this.options.env ?? process.env, this.platform))
  }

  private async clipboardCall<T>(action: () => Promise<T>): Promise<T> {
    this.checkClipboardDisplay()
    try {
      return await action()
    } catch (error) {
      if (error instanceof ClipboardUnavailableError) throw new DesktopActionError(error.message)
      throw new DesktopActionError(`clipboard: ${(error as Error).message}`)
    }
  }
}

export { DesktopUnavailableError }
