/**
 * Frames of a part of the screen and what changed between two of them (docs/desktop.md, "Finding
 * the layout"): the send-text task waits until the window stops changing instead of sleeping a
 * fixed time, and reads only what changed after each of its actions.
 */
import type { Operator, Rect } from '../../desktop'

export interface ScreenFrame {
  /** Where on the screen, in screen pixels. */
  rect: Rect
  png: Uint8Array
  /** One byte of grey per pixel, row by row. */
  grey: Uint8Array
  width: number
  height: number
}

/** Two greys further apart than this are a change (anti-aliasing noise stays below). */
const CHANGE_STEP = 24
/** A change thinner than this is a blinking caret, not content. */
const MIN_CHANGE_SIZE = 4
/** Changes in cells this close belong to one area. */
const CELL = 8

export async function grabFrame(desktop: Operator, rect: Rect): Promise<ScreenFrame> {
  const shot = await desktop.screenshot(null, { kind: 'region', rect }, Math.max(64, rect.width))
  const { default: sharp } = await import('sharp')
  const grey = await sharp(shot.png).flatten({ background: '#ffffff' }).greyscale().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true })
  return { rect: shot.area, png: shot.png, grey: grey.data, width: grey.info.width, height: grey.info.height }
}

/**
 * The areas that changed from `before` to `after` (same place and size), in screen pixels: changed
 * pixels grouped by 8-pixel cells that touch, each group's exact bounds; carets are left out.
 */
export function changedRects(before: ScreenFrame, after: ScreenFrame): Rect[] {
  if (before.width !== after.width || before.height !== after.height) return [after.rect]
  const { width, height } = after
  const cols = Math.ceil(width / CELL)
  const rows = Math.ceil(height / CELL)
  const bounds = new Map<number, { x0: number; y0: number; x1: number; y1: number }>()
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x
      if (Math.abs(before.grey[i]! - after.grey[i]!) <= CHANGE_STEP) continue
      const cell = Math.floor(y / CELL) * cols + Math.floor(x / CELL)
      const b = bounds.get(cell)
      if (!b) bounds.set(cell, { x0: x, y0: y, x1: x, y1: y })
      else {
        b.x0 = Math.min(b.x0, x)
        b.x1 = Math.max(b.x1, x)
        b.y0 = Math.min(b.y0, y)
        b.y1 = Math.max(b.y1, y)
      }
    }
  }
  // Cells that touch (8 neighbours) form one area.
  const seen = new Set<number>()
  const rects: Rect[] = []
  for (const start of bounds.keys()) {
    if (seen.has(start)) continue
    seen.add(start)
    const stack = [start]
    let x0 = Infinity
    let y0 = Infinity
    let x1 = -1
    let y1 = -1
    while (stack.length > 0) {
      const cell = stack.pop()!
      const b = bounds.get(cell)!
      x0 = Math.min(x0, b.x0)
      y0 = Math.min(y0, b.y0)
      x1 = Math.max(x1, b.x1)
      y1 = Math.max(y1, b.y1)
      const cx = cell % cols
      const cy = Math.floor(cell / cols)
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = cx + dx
          const ny = cy + dy
          if (nx < 0 || ny < 0 || nx >= cols || ny >= rows) continue
          const next = ny * cols + nx
          if (bounds.has(next) && !seen.has(next)) {
            seen.add(next)
            stack.push(next)
          }
        }
      }
    }
    if (x1 - x0 + 1 < MIN_CHANGE_SIZE || y1 - y0 + 1 < MIN_CHANGE_SIZE) continue
    rects.push({ x: after.rect.x + x0, y: after.rect.y + y0, width: x1 - x0 + 1, height: y1 - y0 + 1 })
  }
  return rects.sort((a, b) => a.y - b.y || a.x - b.x)
}

export interface SettleOptions {
  /** How long the picture must stay the same to count as settled. */
  quietMs: number
  /** Give up waiting after this long and take the latest frame (an animation never settles). */
  timeoutMs: number
  signal: AbortSignal
  /**
   * The frame before an action that must change the window (a paste, opening a chat, the send
   * key): the quiet time starts only once a frame differs from it, so a slow app's change is not
   * missed and no fixed sleep is needed before settling.
   */
  changeFrom?: ScreenFrame
}

/** Grabs frames until the picture has not changed for `quietMs` (after it changed from `changeFrom`, if given); returns the last one. */
export async function waitForStill(grab: () => Promise<ScreenFrame>, options: SettleOptions): Promise<ScreenFrame> {
  return (await settleTimed(grab, options)).frame
}

/** As waitForStill, and how long after the start the change from `changeFrom` was first seen (null: never, or no `changeFrom`). */
export async function settleTimed(grab: () => Promise<ScreenFrame>, options: SettleOptions): Promise<{ frame: ScreenFrame; changeSeenMs: number | null }> {
  const started = Date.now()
  let frame = await grab()
  let changeSeenMs = options.changeFrom && changedRects(options.changeFrom, frame).length > 0 ? Date.now() - started : null
  let stillSince = Date.now()
  const changed = () => !options.changeFrom || changeSeenMs !== null
  for (;;) {
    if (options.signal.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error('stopped')
    if ((changed() && Date.now() - stillSince >= options.quietMs) || Date.now() - started >= options.timeoutMs) return { frame, changeSeenMs }
    await new Promise((resolve) => setTimeout(resolve, Math.min(40, options.quietMs)))
    const next = await grab()
    if (changedRects(frame, next).length > 0) stillSince = Date.now()
    if (!changed() && changedRects(options.changeFrom!, next).length > 0) {
      changeSeenMs = Date.now() - started
      stillSince = Date.now()
    }
    frame = next
  }
}

/** Whether `rect` (screen pixels) looks the same in two frames of one place (a caret's blink aside): what was read there still holds. */
export function unchangedIn(before: ScreenFrame, after: ScreenFrame, rect: Rect): boolean {
  return changedRects(before, after).every((r) => r.x >= rect.x + rect.width || rect.x >= r.x + r.width || r.y >= rect.y + rect.height || rect.y >= r.y + r.height)
}
