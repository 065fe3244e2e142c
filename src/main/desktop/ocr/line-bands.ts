/**
 * A crop cut into its lines of text, top to bottom, so each is read on its own. Tesseract reads a
 * crop as one block with one threshold: in a search-results column (tall, mostly empty, the top
 * row highlighted #d9d9d9 on #f7f7f7) it dropped the highlighted row's name or misread the whole
 * column (measured against the test chat window: `张伟` → nothing, `李娜` → `Es`). Line by line, with
 * the same preprocessing, every name read right.
 *
 * Ink is what differs from its row's background (the row's most common grey), not what is dark:
 * a row highlighted white on blue, or a dark theme, is text on a background like any other
 * (docs/desktop.md, "Verification: OCR"). A band whose background is dark is marked `dark`, and
 * is read inverted.
 */

/** A horizontal strip of the crop holding one line of text, in the crop's pixels. */
export interface LineBand {
  y: number
  height: number
  /** Light text on a dark background (a highlighted row, a dark theme): read it inverted. */
  dark: boolean
}

/** Greys further than this from their row's background are ink (UI text is ≥ 80 away; bubbles and highlights ≤ 40 from the list). */
const INK_DISTANCE = 60
/** Rows of ink closer than this belong to one line (the strokes of one character can be a few pixels apart). */
const LINE_GAP = 2
/** Kept around a line: Tesseract reads a line best with a margin. */
const PADDING = 6
/** Thinner than this is a rule or a border, not text. */
const MIN_LINE_HEIGHT = 4
/** A background darker than this is a dark row. */
const DARK_BACKGROUND = 128

/** The most common grey of a row (its background), from a 32-bin histogram. */
function rowBackground(grey: Uint8Array, from: number, to: number, bins: Uint32Array): number {
  bins.fill(0)
  for (let i = from; i < to; i++) bins[grey[i]! >> 3]!++
  let best = 0
  for (let b = 1; b < 32; b++) if (bins[b]! > bins[best]!) best = b
  return best * 8 + 4
}

/** The lines of a crop (one byte of grey per pixel, row by row). */
export function lineBands(grey: Uint8Array, width: number, height: number): LineBand[] {
  const bins = new Uint32Array(32)
  const inkRows: boolean[] = []
  const backgrounds: number[] = []
  for (let y = 0; y < height; y++) {
    const background = rowBackground(grey, y * width, (y + 1) * width, bins)
    backgrounds.push(background)
    let ink = 0
    for (let x = y * width; x < (y + 1) * width; x++) if (Math.abs(grey[x]! - background) > INK_DISTANCE) ink++
    // A row inked almost across is a border or the edge of a panel, not text.
    inkRows.push(ink > 0 && ink < width * 0.9)
  }
  const bands: LineBand[] = []
  let start = -1
  let last = -1
  for (let y = 0; y <= height; y++) {
    if (y < height && inkRows[y]) {
      if (start < 0) start = y
      last = y
      continue
    }
    if (start >= 0 && (y >= height || y - last > LINE_GAP)) {
      if (last - start + 1 >= MIN_LINE_HEIGHT) {
        const top = Math.max(0, start - PADDING)
        const bottom = Math.min(height, last + 1 + PADDING)
        const middle = backgrounds.slice(start, last + 1).sort((a, b) => a - b)[(last - start) >> 1]!
        bands.push({ y: top, height: bottom - top, dark: middle < DARK_BACKGROUND })
      }
      start = -1
    }
  }
  return bands
}
