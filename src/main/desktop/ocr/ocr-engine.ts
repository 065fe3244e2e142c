/**
 * What the desktop tasks need from OCR: the lines of text in a crop of the screen and where each
 * is. TesseractOcr is the one implementation; tests of the tasks can pass their own.
 */

/** A rectangle in the pixels of the image that was read. */
export interface OcrBox {
  x: number
  y: number
  width: number
  height: number
}

export interface OcrLine {
  /** As read, runs of spaces made one; compare with `sameText` (text-match.ts), never with ===. */
  text: string
  /** 0–1: how sure the engine is of the line. */
  confidence: number
  box: OcrBox
}

export interface OcrResult {
  /** The lines' texts, one per line. */
  text: string
  /** Top to bottom; lines side by side on one row, left to right. */
  lines: OcrLine[]
  /** Time spent on this image (preparing it and recognising), not waiting for the engine. */
  durationMs: number
}

export interface OcrEngine {
  /** Rejects with an AbortError when `signal` is aborted before the result is back. */
  recognize(png: Uint8Array, options?: { signal?: AbortSignal }): Promise<OcrResult>
  close(): Promise<void>
}
