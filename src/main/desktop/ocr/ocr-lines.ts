/**
 * Tesseract's lines as OcrLines: in the crop's own pixels (the image it read was enlarged), in
 * reading order, and cut where a line has a wide gap. Tesseract reads a uniform block, so a row of
 * UI (a chat's name and, far to the right, its time or the header's "···" button) comes back as one
 * line; cut apart, the name is a line of its own that can be compared whole.
 */
import type { OcrBox, OcrLine } from './ocr-engine'

/** A gap wider than this many line heights separates two things, not two words. */
const WIDE_GAP = 3

interface Bbox {
  x0: number
  y0: number
  x1: number
  y1: number
}

/** The parts of tesseract.js's `blocks` output used here. */
export interface TesseractBlock {
  paragraphs: Array<{ lines: TesseractLine[] }>
}

interface TesseractLine {
  text: string
  confidence: number
  bbox: Bbox
  words: Array<{ text: string; confidence: number; bbox: Bbox }>
}

export function linesFromBlocks(blocks: readonly TesseractBlock[] | null, scale: number, size: { width: number; height: number }): OcrLine[] {
  const lines: OcrLine[] = []
  for (const line of (blocks ?? []).flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines))) {
    for (const part of splitAtWideGaps(line)) {
      const text = part.text.replace(/\s+/gu, ' ').trim()
      if (text !== '') lines.push({ text, confidence: part.confidence / 100, box: toCropPixels(part.bbox, scale, size) })
    }
  }
  return inReadingOrder(lines)
}

function splitAtWideGaps(line: TesseractLine): Array<{ text: string; confidence: number; bbox: Bbox }> {
  const words = line.words.filter((word) => word.text.trim() !== '')
  const height = line.bbox.y1 - line.bbox.y0
  const cuts = words.flatMap((word, i) => (i > 0 && word.bbox.x0 - words[i - 1]!.bbox.x1 > WIDE_GAP * height ? [i] : []))
  if (cuts.length === 0) return [line]
  // Each part keeps the line's own spacing: its text is the stretch of the line's text its words span.
  let cursor = 0
  const spans = words.map((word) => {
    const at = line.text.indexOf(word.text, cursor)
    const start = at < 0 ? cursor : at
    cursor = at < 0 ? cursor : at + word.text.length
    return { start, end: cursor }
  })
  return [0, ...cuts].map((from, k) => {
    const to = k < cuts.length ? cuts[k]! : words.length
    const part = words.slice(from, to)
    return {
      text: line.text.slice(spans[from]!.start, spans[to - 1]!.end) || part.map((word) => word.text).join(' '),
      confidence: part.reduce((sum, word) => sum + word.confidence, 0) / part.length,
      bbox: {
        x0: Math.min(...part.map((word) => word.bbox.x0)),
        y0: Math.min(...part.map((word) => word.bbox.y0)),
        x1: Math.max(...part.map((word) => word.bbox.x1)),
        y1: Math.max(...part.map((word) => word.bbox.y1))
      }
    }
  })
}

function toCropPixels(bbox: Bbox, scale: number, size: { width: number; height: number }): OcrBox {
  const x = clamp(Math.floor(bbox.x0 / scale), 0, size.width)
  const y = clamp(Math.floor(bbox.y0 / scale), 0, size.height)
  return { x, y, width: clamp(Math.ceil(bbox.x1 / scale), x, size.width) - x, height: clamp(Math.ceil(bbox.y1 / scale), y, size.height) - y }
}

/** Top to bottom; lines whose middle is within the first line of a row are that row, left to right. */
function inReadingOrder(lines: OcrLine[]): OcrLine[] {
  const byTop = [...lines].sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x)
  const ordered: OcrLine[] = []
  let row: OcrLine[] = []
  for (const line of byTop) {
    const first = row[0]
    if (first && line.box.y + line.box.height / 2 > first.box.y + first.box.height) {
      ordered.push(...row.sort((a, b) => a.box.x - b.box.x))
      row = []
    }
    row.push(line)
  }
  ordered.push(...row.sort((a, b) => a.box.x - b.box.x))
  return ordered
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value))
}
