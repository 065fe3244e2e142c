/**
 * The crop as Tesseract reads it best: greyscale, enlarged by the height of its text. Measured on
 * rendered chat-like crops (8 colour schemes, mixed Chinese and English): 12–17 px text is read
 * best three times larger, 18–22 px twice, 24 px and up at its own size (enlarging that loses
 * lines). Tesseract copes with light-on-dark text and coloured bubbles itself; inverting,
 * normalising or thresholding first gave the same or worse readings, so none of that is done.
 */

/** Greyscale steps between neighbouring pixels that count as the edge of a stroke. */
const EDGE_STEP = 40
/** A row with fewer edges than this crosses no text (a bubble's or an avatar's sides give 2–8). */
const MIN_EDGES_PER_ROW = 6
/** Text at most this tall (its ink, in pixels) is enlarged three times; up to MEDIUM_TEXT, twice. */
const SMALL_TEXT = 17
const MEDIUM_TEXT = 22
/** Tesseract's time grows with the pixels: larger crops are enlarged less. */
const MAX_PIXELS = 6_000_000

export interface PreparedImage {
  /** A binary PGM: no compression to do here nor to undo in the OCR worker. */
  image: Uint8Array
  /** How many times larger than the crop it is (boxes are divided by this). */
  scale: number
  /** The crop's size. */
  width: number
  height: number
  /** The enlarged greyscale pixels, one byte each, row by row (`width * scale` wide). */
  pixels: Uint8Array
}

export async function prepareForOcr(png: Uint8Array): Promise<PreparedImage> {
  // Loaded on first use: the app must start even where the image library cannot load.
  const { default: sharp } = await import('sharp')
  const grey = await sharp(png).flatten({ background: '#ffffff' }).greyscale().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true })
  const { width, height } = grey.info
  const scale = enlargement(typicalTextHeight(grey.data, width, height), width, height)
  const pixels =
    scale === 1
      ? grey.data
      : await sharp(grey.data, { raw: { width, height, channels: 1 } })
          .resize(width * scale, height * scale, { kernel: 'lanczos3' })
          .toColourspace('b-w')
          .raw()
          .toBuffer()
  return { image: pgm(pixels, width * scale, height * scale), scale, width, height, pixels }
}

/**
 * The part of a prepared image around a box of the crop (in the crop's pixels), with a margin of
 * half the box's height on every side, as a PGM: for reading one line again.
 */
export function cropPrepared(prepared: PreparedImage, box: { x: number; y: number; width: number; height: number }): Uint8Array {
  const fullWidth = prepared.width * prepared.scale
  const fullHeight = prepared.height * prepared.scale
  const margin = Math.ceil((box.height * prepared.scale) / 2)
  const x0 = Math.max(0, box.x * prepared.scale - margin)
  const y0 = Math.max(0, box.y * prepared.scale - margin)
  const x1 = Math.min(fullWidth, (box.x + box.width) * prepared.scale + margin)
  const y1 = Math.min(fullHeight, (box.y + box.height) * prepared.scale + margin)
  const rows: Uint8Array[] = []
  for (let y = y0; y < y1; y++) rows.push(prepared.pixels.subarray(y * fullWidth + x0, y * fullWidth + x1))
  return pgm(Buffer.concat(rows), x1 - x0, y1 - y0)
}

function pgm(pixels: Uint8Array, width: number, height: number): Uint8Array {
  return Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`, 'ascii'), pixels])
}

/** How many times to enlarge: by the text's height when there is text, else twice for a short crop. */
export function enlargement(textHeight: number | null, width: number, height: number): number {
  let scale = textHeight === null ? (height < 200 ? 2 : 1) : textHeight <= SMALL_TEXT ? 3 : textHeight <= MEDIUM_TEXT ? 2 : 1
  while (scale > 1 && width * height * scale * scale > MAX_PIXELS) scale--
  return scale
}

/**
 * The median height of the bands of rows that cross text (many stroke edges), in pixels of a
 * one-channel image; null when no row looks like text. A band is one line of text, as UI text has
 * gaps between lines; bands under 4 px are rules and underlines, not text.
 */
export function typicalTextHeight(grey: Uint8Array, width: number, height: number): number | null {
  const edges = new Uint32Array(height)
  for (let y = 0; y < height; y++) {
    const row = y * width
    let count = 0
    for (let x = row + 1; x < row + width; x++) if (Math.abs(grey[x]! - grey[x - 1]!) > EDGE_STEP) count++
    edges[y] = count
  }
  const bands: number[] = []
  let band = 0
  for (let y = 0; y <= height; y++) {
    if (y < height && edges[y]! >= MIN_EDGES_PER_ROW) {
      band++
      continue
    }
    if (band >= 4) bands.push(band)
    band = 0
  }
  if (bands.length === 0) return null
  bands.sort((a, b) => a - b)
  return bands[Math.floor(bands.length / 2)]!
}
