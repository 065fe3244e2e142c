/**
 * A raw grab (BGRA rows, as libnut returns them) → a PNG scaled down to a width limit
 * (docs/desktop.md, "Screenshots"). Done in the driver process so a large screen never stalls the app.
 */
import sharp from 'sharp'

export interface RawImage {
  width: number
  height: number
  /** 4 bytes per pixel, B G R A; the alpha byte of a grab means nothing. */
  data: Uint8Array
}

export interface EncodedImage {
  png: Uint8Array
  width: number
  height: number
}

export async function encodeGrab(raw: RawImage, maxWidth: number): Promise<EncodedImage> {
  const pixels = raw.width * raw.height
  const channels = Math.round(raw.data.length / pixels)
  const rgb = Buffer.allocUnsafe(pixels * 3)
  const src = raw.data
  for (let i = 0, o = 0; i < pixels * channels; i += channels, o += 3) {
    rgb[o] = src[i + 2]!
    rgb[o + 1] = src[i + 1]!
    rgb[o + 2] = src[i]!
  }
  let image = sharp(rgb, { raw: { width: raw.width, height: raw.height, channels: 3 } })
  let width = raw.width
  let height = raw.height
  if (width > maxWidth) {
    height = Math.max(1, Math.round((height * maxWidth) / width))
    width = maxWidth
    image = image.resize(width, height, { kernel: 'lanczos3' })
  }
  // Level 3 without adaptive filtering: ~4 ms for a typical 1280×800 desktop, ~60 ms for pure noise
  // (docs/benchmarks.md); the defaults (9, adaptive) take 4-10× longer for a third fewer bytes.
  const png = await image.png({ compressionLevel: 3, adaptiveFiltering: false }).toBuffer()
  return { png, width, height }
}
