import type { AttachmentImageType } from '../../shared'

export interface ImageInfo {
  mediaType: AttachmentImageType
  width: number
  height: number
}

/**
 * The format and pixel size an image's own header declares (PNG, JPEG, WebP, GIF), or null when
 * the bytes are none of these. Only headers are read, nothing is decoded: a sent image is checked
 * against the type it claims (a wrong one fails the whole model request) without an image library.
 */
export function readImageInfo(bytes: Uint8Array): ImageInfo | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const ascii = (offset: number, length: number) =>
    offset + length <= bytes.length ? String.fromCharCode(...bytes.subarray(offset, offset + length)) : ''
  if (bytes.length >= 24 && ascii(1, 3) === 'PNG' && bytes[0] === 0x89 && ascii(12, 4) === 'IHDR') {
    return sized('image/png', view.getUint32(16), view.getUint32(20))
  }
  if (bytes.length >= 10 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) {
    return sized('image/gif', view.getUint16(6, true), view.getUint16(8, true))
  }
  if (ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') return webp(bytes, view, ascii(12, 4))
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpeg(bytes, view)
  return null
}

function sized(mediaType: AttachmentImageType, width: number, height: number): ImageInfo | null {
  return width > 0 && height > 0 ? { mediaType, width, height } : null
}

function webp(bytes: Uint8Array, view: DataView, chunk: string): ImageInfo | null {
  switch (chunk) {
    case 'VP8 ': // lossy: a key frame's start code, then 14-bit width and height
      if (bytes.length < 30 || bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null
      return sized('image/webp', view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff)
    case 'VP8L': {
      // lossless: a signature byte, then width − 1 and height − 1 in 14 bits each
      if (bytes.length < 25 || bytes[20] !== 0x2f) return null
      const bits = view.getUint32(21, true)
      return sized('image/webp', (bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1)
    }
    case 'VP8X': // extended: canvas width − 1 and height − 1 in 24 bits each
      if (bytes.length < 30) return null
      return sized('image/webp', uint24(bytes, 24) + 1, uint24(bytes, 27) + 1)
    default:
      return null
  }
}

function uint24(bytes: Uint8Array, offset: number): number {
  return bytes[offset]! | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16)
}

/** Walks the JPEG segments to the first start-of-frame, which holds the size. */
function jpeg(bytes: Uint8Array, view: DataView): ImageInfo | null {
  let offset = 2
  while (offset + 9 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null
    const marker = bytes[offset + 1]!
    if (marker === 0xff) {
      offset++ // fill byte
      continue
    }
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return sized('image/jpeg', view.getUint16(offset + 7), view.getUint16(offset + 5))
    }
    // Markers without a length: TEM and RST0–RST7.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2
      continue
    }
    offset += 2 + view.getUint16(offset + 2)
  }
  return null
}
