/**
 * A crop cut into its lines of text, top to bottom, so each is read on its own. Tesseract reads a
 * crop as one block with one threshold: in a search-results column (tall, mostly empty, the top
 * row highlighted #d9d9d9 on #f7f7f7) it dropped the highlighted row's name or misread the whole
 * column (measured against the test chat window: `张伟` → nothing, `李娜` → `Es`). Line by line, with
 * the same preprocessing, every name read right.
 */

/** A horizontal strip of the crop holding one line of text, in the crop's pixels. */
export interface LineBand {
  y: number
  height: number
}

/** Greys darker than this are ink: UI text (#111–#666) is; backgrounds, highlights and bubbles (#95ec69 ≈ 208) are not. */
const INK_THRESHOLD = 160
/** Rows of ink closer than this belong to one line (the strokes of one character can be a few pixels apart). */
const LINE_GAP = 2
/** Kept around a line: Tesseract reads a line best with a margin. */
const PADDING = 6
/** Thinner than this is a rule or a border, not text. */
const MIN_LINE_HEIGHT = 4

/** The lines of a crop (one byte of grey per pixel, row by row); a dark theme (mostly dark pixels) is read inverted. */
export function lineBands(grey: Uint8Array, width: number, height: number): LineBand[] {
  let dark = 0
  for (let i = 0; i < grey.length; i++) if (grey[i]! < 128) dark++
  const invert = dark > grey.length / 2
  const inkRows: boolean[] = []
  for (let y = 0; y < height; y++) {
    let ink = 0
    for (let x = y * width; x < (y + 1) * width; x++) {
      const value = invert ? 255 - grey[x]! : grey[x]!
      if (value < INK_THRESHOLD) ink++
    }
    // A row dark almost across is a border or the edge of a dark panel, not text.
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
        bands.push({ y: top, height: Math.min(height, last + 1 + PADDING) - top })
      }
      start = -1
    }
  }
  return bands
}
