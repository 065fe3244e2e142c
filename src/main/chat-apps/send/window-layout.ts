/**
 * Finding a chat app's layout in its window instead of assuming it (docs/desktop.md, "Finding the
 * layout"): the window's panes (columns between full-height borders), the text around what changed
 * after an action, and the OCR lines of a part of a frame in screen pixels.
 */
import type { OcrEngine, OcrLine, Rect } from '../../desktop'
import { changedRects, type ScreenFrame } from './screen-frames'

/** A column of the window between two full-height borders or edges, in screen pixels. */
export interface Pane {
  x: number
  width: number
}

/** A line read on screen, its box in screen pixels. */
export interface ScreenLine extends OcrLine {
  pane: Pane
}

/** Neighbouring columns differing by more than this on a row are an edge there. */
const EDGE_STEP = 6
/** A border runs (almost) the whole height. */
const BORDER_SHARE = 0.9
/** Narrower columns are borders or gaps, not panes. */
const MIN_PANE_WIDTH = 24
/** A row whose greys span less than this crosses no text. */
const BLANK_SPREAD = 40

/** The window's panes, left to right: the columns between vertical borders (the nav bar's edge, the list's border). */
export function panesOf(frame: ScreenFrame): Pane[] {
  const { width, height, grey } = frame
  const cuts = [0]
  for (let x = 1; x < width; x++) {
    let edges = 0
    for (let y = 0; y < height; y++) if (Math.abs(grey[y * width + x]! - grey[y * width + x - 1]!) > EDGE_STEP) edges++
    if (edges >= height * BORDER_SHARE) cuts.push(x)
  }
  cuts.push(width)
  const panes: Pane[] = []
  for (let i = 0; i + 1 < cuts.length; i++) {
    const w = cuts[i + 1]! - cuts[i]!
    if (w >= MIN_PANE_WIDTH) panes.push({ x: frame.rect.x + cuts[i]!, width: w })
  }
  return panes.length > 0 ? panes : [{ x: frame.rect.x, width }]
}

export function paneAt(panes: Pane[], x: number): Pane | undefined {
  return panes.find((p) => x >= p.x && x < p.x + p.width)
}

/** Whether a row of a pane is blank (no text crosses it). */
function blankRow(frame: ScreenFrame, pane: Pane, y: number): boolean {
  const from = y * frame.width + (pane.x - frame.rect.x)
  let min = 255
  let max = 0
  for (let i = from; i < from + pane.width; i++) {
    const v = frame.grey[i]!
    if (v < min) min = v
    if (v > max) max = v
  }
  return max - min < BLANK_SPREAD
}

/** The rows `top`..`bottom` (frame pixels) widened to the blank rows around them, within the pane. */
function widenToBlankRows(frame: ScreenFrame, pane: Pane, top: number, bottom: number): [number, number] {
  let y0 = Math.max(0, top)
  let y1 = Math.min(frame.height - 1, bottom)
  while (y0 > 0 && !blankRow(frame, pane, y0 - 1)) y0--
  while (y1 < frame.height - 1 && !blankRow(frame, pane, y1 + 1)) y1++
  // Tesseract reads a line best with a margin around it.
  return [Math.max(0, y0 - 8), Math.min(frame.height - 1, y1 + 8)]
}

/**
 * What changed from `before` to `after`, as whole lines: each change widened to its pane's width
 * and to the blank rows above and below (a name whose end alone changed is read whole), one area
 * per pane and run of text, in screen pixels, top to bottom.
 */
export function changedAreas(before: ScreenFrame, after: ScreenFrame, panes: Pane[] = panesOf(after)): Array<{ pane: Pane; rect: Rect }> {
  const areas: Array<{ pane: Pane; rect: Rect }> = []
  for (const change of changedRects(before, after)) {
    for (const pane of panes) {
      const left = Math.max(change.x, pane.x)
      const right = Math.min(change.x + change.width, pane.x + pane.width)
      if (right - left < 2) continue
      const [y0, y1] = widenToBlankRows(after, pane, change.y - after.rect.y, change.y + change.height - 1 - after.rect.y)
      areas.push({ pane, rect: { x: pane.x, y: after.rect.y + y0, width: pane.width, height: y1 - y0 + 1 } })
    }
  }
  return mergeAreas(areas)
}

/** Areas of one pane that overlap or touch become one. */
function mergeAreas(areas: Array<{ pane: Pane; rect: Rect }>): Array<{ pane: Pane; rect: Rect }> {
  const sorted = [...areas].sort((a, b) => a.pane.x - b.pane.x || a.rect.y - b.rect.y)
  const merged: Array<{ pane: Pane; rect: Rect }> = []
  for (const area of sorted) {
    const last = merged[merged.length - 1]
    if (last && last.pane.x === area.pane.x && area.rect.y <= last.rect.y + last.rect.height + 1) {
      const bottom = Math.max(last.rect.y + last.rect.height, area.rect.y + area.rect.height)
      last.rect = { ...last.rect, height: bottom - last.rect.y }
    } else merged.push({ pane: area.pane, rect: { ...area.rect } })
  }
  return merged.sort((a, b) => a.rect.y - b.rect.y || a.pane.x - b.pane.x)
}

/** A pane of a frame, top to bottom, as an area to read. */
export function wholePane(frame: ScreenFrame, pane: Pane): { pane: Pane; rect: Rect } {
  return { pane, rect: { x: pane.x, y: frame.rect.y, width: pane.width, height: frame.height } }
}

/**
 * The panes of the window that hold a search's results (docs/desktop.md, "Finding the layout"):
 * every pane the search changed, to be read whole, not only where it changed — a result can look
 * exactly as the chat list's row there did before (the open chat, highlighted, first in both), and
 * a result left unread could hide a second chat of the same name. When the search opened a dialog,
 * a pane whose only change is the search box showing the name (`echo`) is left out: the results
 * are in the dialog.
 */
export function resultPanes(before: ScreenFrame, after: ScreenFrame, echo: Rect[], dialogOpened: boolean): Pane[] {
  const changes = changedRects(before, after).filter((change) => !dialogOpened || !echo.some((rect) => overlaps(rect, change)))
  return panesOf(after).filter((pane) => changes.some((c) => Math.min(c.x + c.width, pane.x + pane.width) - Math.max(c.x, pane.x) >= 2))
}

/** Ink no wider than this, in one place, is a caret, not text. */
const CARET_WIDTH = 3

/**
 * Whether a part of a frame shows no text: on no row is there ink (a grey far from that row's most
 * common grey, its background) except within one caret-wide column. Tells an emptied draft box
 * without OCR; any text of two characters or more is wider than a caret.
 */
export function showsNoText(frame: ScreenFrame, rect: Rect): boolean {
  const left = Math.max(0, rect.x - frame.rect.x)
  const top = Math.max(0, rect.y - frame.rect.y)
  const right = Math.min(frame.width, rect.x - frame.rect.x + rect.width)
  const bottom = Math.min(frame.height, rect.y - frame.rect.y + rect.height)
  let inkLeft = Infinity
  let inkRight = -1
  const counts = new Uint32Array(256)
  for (let y = top; y < bottom; y++) {
    const row = frame.grey.subarray(y * frame.width + left, y * frame.width + right)
    counts.fill(0)
    for (const v of row) counts[v]!++
    let background = 0
    for (let v = 1; v < 256; v++) if (counts[v]! > counts[background]!) background = v
    for (let x = 0; x < row.length; x++) {
      if (Math.abs(row[x]! - background) <= BLANK_SPREAD / 2) continue
      inkLeft = Math.min(inkLeft, x)
      inkRight = Math.max(inkRight, x)
      if (inkRight - inkLeft + 1 > CARET_WIDTH) return false
    }
  }
  return true
}

/** The first run of text from the top of a pane (its title line), in screen pixels; null when the pane is blank. */
export function topTextArea(frame: ScreenFrame, pane: Pane): Rect | null {
  let y = 0
  while (y < frame.height && blankRow(frame, pane, y)) y++
  if (y >= frame.height) return null
  const [y0, y1] = widenToBlankRows(frame, pane, y, y)
  return { x: pane.x, y: frame.rect.y + y0, width: pane.width, height: y1 - y0 + 1 }
}

/** A part of a frame (screen pixels) as a PNG of its own. */
export async function cropFrame(frame: ScreenFrame, rect: Rect): Promise<{ png: Uint8Array; width: number; height: number }> {
  const left = Math.max(0, rect.x - frame.rect.x)
  const top = Math.max(0, rect.y - frame.rect.y)
  const width = Math.max(1, Math.min(frame.width - left, rect.width))
  const height = Math.max(1, Math.min(frame.height - top, rect.height))
  const { default: sharp } = await import('sharp')
  const png = await sharp(frame.png).extract({ left, top, width, height }).png({ compressionLevel: 1 }).toBuffer()
  return { png: new Uint8Array(png), width, height }
}

/** A solid block at least this many pixels wide and tall is a picture (an avatar, an icon), not text. */
const PICTURE_SIZE = 14
/** Greys within this of each other are one solid colour. */
const SOLID_STEP = 6

/**
 * The crop's greys with every solid block (an avatar) painted over in its row's background: OCR
 * reads a picture as a character (a green square came out as `图`, and `图 李娜` is not `李娜`).
 * Strokes of text are thin, so a block both wide and tall is never text.
 */
export function maskPictures(grey: Uint8Array, width: number, height: number): Uint8Array {
  const wide = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    let start = 0
    for (let x = 1; x <= width; x++) {
      const i = y * width + x
      if (x < width && Math.abs(grey[i]! - grey[i - 1]!) <= SOLID_STEP) continue
      if (x - start >= PICTURE_SIZE) wide.fill(1, y * width + start, y * width + x)
      start = x
    }
  }
  const out = Uint8Array.from(grey)
  const backgrounds: number[] = []
  for (let y = 0; y < height; y++) {
    const row = Array.from(grey.subarray(y * width, (y + 1) * width)).sort((a, b) => a - b)
    backgrounds.push(row[row.length >> 1]!)
  }
  // Solid and not background: a pixel of a wide run whose grey is not its row's background.
  const solid = (x: number, y: number) => wide[y * width + x] === 1 && Math.abs(grey[y * width + x]! - backgrounds[y]!) > SOLID_STEP
  for (let x = 0; x < width; x++) {
    let start = 0
    for (let y = 1; y <= height; y++) {
      const continues = y < height && solid(x, y) && solid(x, y - 1) && Math.abs(grey[y * width + x]! - grey[(y - 1) * width + x]!) <= SOLID_STEP
      if (continues) continue
      if (y - start >= PICTURE_SIZE && solid(x, start)) for (let k = start; k < y; k++) out[k * width + x] = backgrounds[k]!
      start = y
    }
  }
  return out
}

/** A part of a frame as OCR should see it: greyscale, pictures painted over. */
async function cropForReading(frame: ScreenFrame, rect: Rect): Promise<Uint8Array> {
  const left = Math.max(0, rect.x - frame.rect.x)
  const top = Math.max(0, rect.y - frame.rect.y)
  const width = Math.max(1, Math.min(frame.width - left, rect.width))
  const height = Math.max(1, Math.min(frame.height - top, rect.height))
  const grey = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) grey.set(frame.grey.subarray((top + y) * frame.width + left, (top + y) * frame.width + left + width), y * width)
  const { default: sharp } = await import('sharp')
  const png = await sharp(maskPictures(grey, width, height), { raw: { width, height, channels: 1 } }).png({ compressionLevel: 1 }).toBuffer()
  return new Uint8Array(png)
}

/** The OCR lines of a part of a frame, boxes in screen pixels. */
export async function readArea(ocr: OcrEngine, frame: ScreenFrame, area: { pane: Pane; rect: Rect }, signal: AbortSignal): Promise<ScreenLine[]> {
  const result = await ocr.recognize(await cropForReading(frame, area.rect), { signal })
  return result.lines.map((line) => ({
    ...line,
    pane: area.pane,
    box: { x: line.box.x + area.rect.x, y: line.box.y + area.rect.y, width: line.box.width, height: line.box.height }
  }))
}

export function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}
