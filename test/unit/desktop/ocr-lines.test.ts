import { describe, expect, it } from 'vitest'
import { linesFromBlocks, type TesseractBlock } from '../../../src/main/desktop/ocr/ocr-lines'
import { cropPrepared, enlargement, typicalTextHeight, type PreparedImage } from '../../../src/main/desktop/ocr/preprocess'
import { chineseReadingWins, worthReadingInChinese } from '../../../src/main/desktop/ocr/second-reading'

type Word = { text: string; x0: number; x1: number; confidence?: number }

/** One Tesseract line at a height, from its words (in the enlarged image's pixels). */
function line(text: string, y0: number, y1: number, words: Word[], confidence = 90) {
  const bbox = (x0: number, x1: number) => ({ x0, y0, x1, y1 })
  return {
    text: `${text}\n`,
    confidence,
    bbox: bbox(Math.min(...words.map((w) => w.x0)), Math.max(...words.map((w) => w.x1))),
    words: words.map((w) => ({ text: w.text, confidence: w.confidence ?? confidence, bbox: bbox(w.x0, w.x1) }))
  }
}
const page = (...lines: ReturnType<typeof line>[]): TesseractBlock[] => [{ paragraphs: [{ lines }] }]
const size = { width: 700, height: 460 }

describe('linesFromBlocks', () => {
  it('maps boxes back to the crop’s pixels and confidences to 0–1', () => {
    const [only] = linesFromBlocks(page(line('产品群', 60, 105, [{ text: '产品群', x0: 63, x1: 320 }], 85)), 3, size)
    expect(only).toEqual({ text: '产品群', confidence: 0.85, box: { x: 21, y: 20, width: 86, height: 15 } })
  })

  it('keeps boxes inside the crop', () => {
    const [only] = linesFromBlocks(page(line('x', 0, 200, [{ text: 'x', x0: 0, x1: 3000 }])), 3, { width: 100, height: 50 })
    expect(only!.box).toEqual({ x: 0, y: 0, width: 100, height: 50 })
  })

  it('makes runs of spaces one and drops empty lines', () => {
    const lines = linesFromBlocks(page(line('张伟   (HR)', 0, 30, [{ text: '张伟', x0: 0, x1: 40 }, { text: '(HR)', x0: 60, x1: 100 }]), line('   ', 40, 70, [{ text: ' ', x0: 0, x1: 10 }])), 1, size)
    expect(lines.map((l) => l.text)).toEqual(['张伟 (HR)'])
  })

  it('cuts a line where a gap is wider than three line heights, keeping each part’s own spacing', () => {
    const header = line('产品群〈旧)                                 Te', 60, 105, [
      { text: '产品', x0: 63, x1: 203, confidence: 90 },
      { text: '群', x0: 186, x1: 233, confidence: 90 },
      { text: '〈旧)', x0: 237, x1: 316, confidence: 60 },
      { text: 'Te', x0: 1992, x1: 2059, confidence: 7 }
    ])
    const lines = linesFromBlocks(page(header), 3, size)
    expect(lines.map((l) => l.text)).toEqual(['产品群〈旧)', 'Te'])
    expect(lines[0]!.box).toEqual({ x: 21, y: 20, width: 85, height: 15 })
    expect(lines[0]!.confidence).toBeCloseTo(0.8)
    expect(lines[1]!.box.x).toBe(664)
    expect(lines[1]!.confidence).toBeCloseTo(0.07)
  })

  it('does not cut at ordinary word spaces', () => {
    const lines = linesFromBlocks(page(line('Design review moved', 0, 20, [{ text: 'Design', x0: 0, x1: 60 }, { text: 'review', x0: 70, x1: 130 }, { text: 'moved', x0: 140, x1: 200 }])), 1, size)
    expect(lines.map((l) => l.text)).toEqual(['Design review moved'])
  })

  it('orders lines top to bottom, and a row’s lines left to right', () => {
    const lines = linesFromBlocks(
      page(
        line('14:05', 100, 120, [{ text: '14:05', x0: 600, x1: 650 }]),
        line('second', 40, 60, [{ text: 'second', x0: 10, x1: 60 }]),
        line('right', 2, 18, [{ text: 'right', x0: 500, x1: 550 }]),
        line('left', 0, 20, [{ text: 'left', x0: 10, x1: 50 }])
      ),
      1,
      size
    )
    expect(lines.map((l) => l.text)).toEqual(['left', 'right', 'second', '14:05'])
  })

  it('has no lines for an empty page', () => {
    expect(linesFromBlocks(null, 2, size)).toEqual([])
    expect(linesFromBlocks([], 2, size)).toEqual([])
  })
})

describe('second reading in Chinese', () => {
  const box = { x: 0, y: 0, width: 40, height: 14 }

  it('is for short lines without Chinese, high enough to be text', () => {
    expect(worthReadingInChinese({ text: '5', box })).toBe(true)
    expect(worthReadingInChinese({ text: 'BZA', box })).toBe(true)
    expect(worthReadingInChinese({ text: 'mE (17)', box })).toBe(true)
    expect(worthReadingInChinese({ text: '王芳', box })).toBe(false)
    expect(worthReadingInChinese({ text: 'Design review moved to Friday', box })).toBe(false)
    expect(worthReadingInChinese({ text: 'Te', box: { ...box, height: 3 } })).toBe(false)
    expect(worthReadingInChinese({ text: ' ', box })).toBe(false)
  })

  it('wins only when it is Chinese without Latin letters', () => {
    expect(chineseReadingWins('王芳')).toBe(true)
    expect(chineseReadingWins('产品群〈旧)')).toBe(true)
    expect(chineseReadingWins('技术部2组')).toBe(true)
    expect(chineseReadingWins('Ops扫')).toBe(false)
    expect(chineseReadingWins('Team (dra征')).toBe(false)
    expect(chineseReadingWins('14:05')).toBe(false)
    expect(chineseReadingWins('')).toBe(false)
  })
})

describe('preparing a crop', () => {
  /** A white image with dark text-like stripes (many edges per row) in bands of the given heights. */
  function stripes(width: number, bands: Array<{ top: number; height: number }>, rows: number): Uint8Array {
    const grey = new Uint8Array(width * rows).fill(255)
    for (const { top, height } of bands) {
      for (let y = top; y < top + height; y++) for (let x = 10; x < width - 10; x += 4) grey[y * width + x] = 20
    }
    return grey
  }

  it('measures the typical height of the text lines', () => {
    const grey = stripes(200, [{ top: 10, height: 14 }, { top: 40, height: 15 }, { top: 70, height: 13 }, { top: 100, height: 2 }], 120)
    expect(typicalTextHeight(grey, 200, 120)).toBe(14)
  })

  it('finds no text in a flat image or one with only a bubble’s sides', () => {
    expect(typicalTextHeight(new Uint8Array(100 * 50).fill(240), 100, 50)).toBeNull()
    const bubble = new Uint8Array(100 * 50).fill(240)
    for (let y = 5; y < 45; y++) for (let x = 10; x < 90; x++) bubble[y * 100 + x] = 208
    expect(typicalTextHeight(bubble, 100, 50)).toBeNull()
  })

  it('enlarges small text three times, medium text twice, large text not at all', () => {
    expect(enlargement(12, 700, 60)).toBe(3)
    expect(enlargement(17, 700, 60)).toBe(3)
    expect(enlargement(20, 700, 60)).toBe(2)
    expect(enlargement(22, 700, 60)).toBe(2)
    expect(enlargement(24, 700, 60)).toBe(1)
    expect(enlargement(30, 700, 60)).toBe(1)
  })

  it('enlarges a short crop without text twice, a tall one not', () => {
    expect(enlargement(null, 700, 60)).toBe(2)
    expect(enlargement(null, 700, 460)).toBe(1)
  })

  it('enlarges a large crop less, to keep the reading fast', () => {
    expect(enlargement(14, 700, 460)).toBe(3)
    expect(enlargement(14, 1280, 800)).toBe(2)
    expect(enlargement(14, 2560, 1600)).toBe(1)
  })

  it('crops a line of the enlarged image with a margin, as a PGM', () => {
    const width = 10
    const height = 6
    const scale = 2
    const pixels = Uint8Array.from({ length: width * scale * height * scale }, (_, i) => i % 256)
    const prepared: PreparedImage = { image: new Uint8Array(), scale, width, height, pixels }
    const crop = Buffer.from(cropPrepared(prepared, { x: 2, y: 2, width: 3, height: 2 }))
    const header = 'P5\n10 8\n255\n'
    expect(crop.subarray(0, header.length).toString('ascii')).toBe(header)
    // Rows 2..9 and columns 2..11 of the 20-wide enlarged image (box ×2, margin 2 on each side).
    expect(crop[header.length]).toBe(2 * 20 + 2)
    expect(crop.length).toBe(header.length + 10 * 8)
    expect(crop[crop.length - 1]).toBe(9 * 20 + 11)
  })
})
