/**
 * The last screenshot with the points of a click or drag marked, for the approval question
 * (docs/desktop.md, "What asks"): the user sees where the pointer will go before it goes there.
 */
import type { Point } from './protocol'

/** Approvals travel as events and are stored: a JPEG at most this wide is plenty to see a marker on. */
const PREVIEW_MAX_WIDTH = 960

export interface MarkedImage {
  mediaType: 'image/jpeg'
  data: string
  width: number
  height: number
}

/** Marks `points` (pixels of `png`) with rings and cross-hairs; a drag's two points are joined by an arrow line. */
export async function markPoint(png: Uint8Array, points: Point[]): Promise<MarkedImage> {
  // Loaded on first use: the app must start even where the image library cannot load.
  const { default: sharp } = await import('sharp')
  const image = sharp(png)
  const meta = await image.metadata()
  const width = meta.width ?? 1
  const height = meta.height ?? 1
  const scale = Math.min(1, PREVIEW_MAX_WIDTH / width)
  const outWidth = Math.round(width * scale)
  const outHeight = Math.round(height * scale)
  const at = points.map((p) => ({ x: Math.round(p.x * scale), y: Math.round(p.y * scale) }))
  const radius = 12
  const marks = at
    .map(
      (p) =>
        `<circle cx="${p.x}" cy="${p.y}" r="${radius}" fill="none" stroke="#ffffff" stroke-width="5"/>` +
        `<circle cx="${p.x}" cy="${p.y}" r="${radius}" fill="none" stroke="#e5484d" stroke-width="3"/>` +
        `<line x1="${p.x - radius - 6}" y1="${p.y}" x2="${p.x + radius + 6}" y2="${p.y}" stroke="#e5484d" stroke-width="2"/>` +
        `<line x1="${p.x}" y1="${p.y - radius - 6}" x2="${p.x}" y2="${p.y + radius + 6}" stroke="#e5484d" stroke-width="2"/>`
    )
    .join('')
  const path =
    at.length === 2 ? `<line x1="${at[0]!.x}" y1="${at[0]!.y}" x2="${at[1]!.x}" y2="${at[1]!.y}" stroke="#e5484d" stroke-width="3" stroke-dasharray="8 5"/>` : ''
  const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${outWidth}" height="${outHeight}">${path}${marks}</svg>`)
  const data = await sharp(png)
    .resize(outWidth, outHeight)
    .composite([{ input: svg, top: 0, left: 0 }])
    .jpeg({ quality: 80 })
    .toBuffer()
  return { mediaType: 'image/jpeg', data: data.toString('base64'), width: outWidth, height: outHeight }
}
