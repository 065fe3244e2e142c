/**
 * The tree way's check of a sent message where the app does not expose its conversation's text
 * (docs/desktop.md, "Through the accessibility tree"): the newest message is read with OCR.
 */
import { normalizeForMatch, similarity, type OcrEngine, type Rect } from '../../desktop'
import { readsSentMessage } from './reads-text'
import { changedRects, grabFrame, type ScreenFrame } from './screen-frames'
import type { SendTextDeps } from './send-text'
import { sleep } from './task-parts'
import { cropFrame, panesOf, readArea } from './window-layout'

/** The tree is read again this often while waiting for a change (no fixed waits). */
export const POLL_MS = 300
/** A row whose greys span more than this crosses text (as in window-layout's blank rows). */
const INK_SPREAD = 40

/**
 * Where the history is not exposed (a custom widget), the newest message is read with OCR: what
 * changed in the widget after the send key, its lowest part when the whole widget scrolled; a
 * message line starts with the sender, so the text is compared with the reading's end.
 */
export async function readNewestMessage(
  desktop: SendTextDeps['desktop'],
  ocr: OcrEngine,
  before: ScreenFrame,
  text: string,
  timeoutMs: number,
  signal: AbortSignal
): Promise<NewestMessage> {
  let last: NewestMessage = { reads: false, reading: '(the conversation did not change)' }
  // The message shows when the client sends it, which may be seconds after the entry empties: read until it shows the text.
  const deadline = Date.now() + timeoutMs
  let read: ScreenFrame | undefined
  for (;;) {
    const after = await grabFrame(desktop, before.rect)
    // A line of text is taller and wider than a moved separator: only such changes are read.
    const changed = changedRects(before, after).filter((r) => r.height >= 8 && r.width >= 8)
    if (changed.length > 0 && (read === undefined || changedRects(read, after).length > 0)) {
      read = after
      last = await readLowestBand(ocr, after, changed, text, signal)
    }
    if (last.reads || Date.now() > deadline) return last
    await sleep(POLL_MS, signal)
  }
}

type NewestMessage = { reads: boolean; reading: string; image?: { png: Uint8Array; width: number; height: number } }

/**
 * The lowest band of changed rows that holds text, in the messages' column: the rightmost column
 * between full-height borders (HexChat draws one between the nicks and the text). A band taller
 * than the text can fill (the whole conversation scrolled) is read from its bottom.
 */
async function readLowestBand(ocr: OcrEngine, frame: ScreenFrame, changed: Rect[], text: string, signal: AbortSignal): Promise<NewestMessage> {
  const panes = panesOf(frame).filter((p) => p.width >= 40)
  const pane = panes[panes.length - 1] ?? { x: frame.rect.x, width: frame.width }
  const charsPerLine = Math.max(8, Math.floor(pane.width / 9))
  const budget = 30 + (text.split('\n').length + Math.ceil(normalizeForMatch(text).length / charsPerLine) + 1) * 24
  const bands: Array<{ top: number; bottom: number }> = []
  for (const r of [...changed].sort((a, b) => a.y - b.y)) {
    const band = bands[bands.length - 1]
    if (band && r.y <= band.bottom + 10) band.bottom = Math.max(band.bottom, r.y + r.height)
    else bands.push({ top: r.y, bottom: r.y + r.height })
  }
  let blank: NewestMessage = { reads: false, reading: '' }
  for (const band of bands.reverse().slice(0, 3)) {
    // Text moved sideways (a wider nick column) changes a whole band: its last line of ink is the newest.
    const inkBottom = lowestInk(frame, pane, band.top, band.bottom)
    if (inkBottom === undefined) continue
    const top = Math.max(frame.rect.y, Math.max(band.top, inkBottom - budget) - 3)
    const rect = { x: pane.x, y: top, width: pane.width, height: Math.min(inkBottom + 4, frame.rect.y + frame.height) - top }
    const found = await readArea(ocr, frame, { pane, rect }, signal)
    const reading = found.map((l) => l.text).join('\n')
    const image = await cropFrame(frame, rect)
    if (reading.trim() !== '') return { reads: endsWithText(reading, text), reading, image }
    if (!blank.image) blank = { reads: false, reading: '', image }
  }
  return blank
}

/** The lowest row (screen y) between top and bottom where something is drawn in the pane, if any. */
function lowestInk(frame: ScreenFrame, pane: { x: number; width: number }, top: number, bottom: number): number | undefined {
  const left = pane.x - frame.rect.x
  for (let y = Math.min(bottom, frame.rect.y + frame.height) - 1; y >= Math.max(top, frame.rect.y); y--) {
    const row = (y - frame.rect.y) * frame.width
    let min = 255
    let max = 0
    for (let x = left; x < left + pane.width; x++) {
      const v = frame.grey[row + x]!
      if (v < min) min = v
      if (v > max) max = v
    }
    if (max - min > INK_SPREAD) return y + 1
  }
  return undefined
}

/**
 * Whether an OCR reading ends with the text, as closely as the screen way checks a sent message.
 * OCR reads a picture (an emoji) as a few stray characters, or a tall one as several lines of
 * them: after the text, that many are allowed when it ends with pictures, a caret's `|` otherwise.
 */
export function endsWithText(reading: string, text: string): boolean {
  const seen = normalizeForMatch(reading).replace(/[|丨]+$/u, '')
  const expected = normalizeForMatch(text)
  if (expected === '') return false
  const pictures = (text.match(/\p{Extended_Pictographic}/gu) ?? []).length
  const trailingPictures = (/(\p{Extended_Pictographic}|\uFE0F|\s)+$/u.exec(text)?.[0].match(/\p{Extended_Pictographic}/gu) ?? []).length
  const strayAfter = 1 + trailingPictures * 10
  for (let after = 0; after <= Math.min(strayAfter, seen.length); after++) {
    const end = seen.length - after
    for (let extra = 0; extra <= 3 + pictures * 3; extra++) {
      const window = seen.slice(Math.max(0, end - expected.length - extra), end)
      if (readsSentMessage(window, text) || similarity(window, expected) >= 0.85) return true
    }
  }
  return false
}
