/**
 * The operator (docs/desktop.md): what the rooms built on the desktop — the chat-app send task, the
 * teach-an-app wizard — may ask of it, in the spirit of UI-TARS's `Operator`: observe the screen
 * (screenshots, windows), execute input actions (keys, clicks, paste, focus) under the input lock,
 * and the clipboard they need to keep or restore. `DesktopService` implements it; a room above
 * depends on this type, never on the driver.
 */
import type { ClipboardSnapshot } from './clipboard'
import type { MouseButton, Point, Rect, WindowInfo } from './protocol'

/** Who is acting: a run of a conversation, with the signal that stops it. */
export interface DesktopCaller {
  runId: string
  conversationId: string
  signal?: AbortSignal
}

export type ScreenshotTarget = { kind: 'screen' } | { kind: 'window'; title: string } | { kind: 'region'; rect: Rect }

export interface Screenshot {
  png: Uint8Array
  width: number
  height: number
  /** What was captured, in screen pixels. */
  area: Rect
  /** Screen pixels per image pixel. */
  scale: number
  screen: { width: number; height: number }
  window?: WindowInfo
}

export interface Operator {
  // ---- observe ----
  /** A capture of the screen, a window or a region, scaled to at most maxWidth pixels wide. */
  screenshot(conversationId: string | null, target: ScreenshotTarget, maxWidth?: number): Promise<Screenshot>
  /** The open windows (title, application, bounds, focus). */
  windows(): Promise<WindowInfo[]>

  // ---- execute: each takes the input lock for the caller's run ----
  click(caller: DesktopCaller, at: Point, button: MouseButton, double: boolean): Promise<Point>
  /** Presses a combination such as `ctrl+shift+t` (`mod` = Ctrl, or Cmd on macOS). */
  pressKeys(caller: DesktopCaller, combo: string): Promise<string[]>
  /** Pastes text into the focused field and leaves it on the clipboard (see DesktopService.pasteText). */
  pasteText(caller: DesktopCaller, text: string, options?: { meanwhile?: () => Promise<void>; settleMs?: number }): Promise<void>
  /** Brings this window (from windows()) to the front. */
  focus(caller: DesktopCaller, window: WindowInfo): Promise<WindowInfo>
  /** A run ended: it no longer holds the input. */
  runEnded(runId: string): void

  // ---- clipboard ----
  saveClipboard(): Promise<ClipboardSnapshot>
  readClipboard(): Promise<string>
  writeClipboard(text: string): Promise<void>
}
