import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { readImageInfo } from '../../../src/main/attachments'

const blank = (channels: 3 | 4 = 3) => sharp({ create: { width: 37, height: 21, channels, background: { r: 51, g: 102, b: 204, alpha: 0.5 } } })

describe('readImageInfo: the format and size an image header declares', () => {
  it('reads PNG, JPEG, GIF and the three WebP flavours', async () => {
    const images: Array<[string, Buffer]> = [
      ['image/png', await blank().png().toBuffer()],
      ['image/jpeg', await blank().jpeg().toBuffer()],
      ['image/gif', await blank().gif().toBuffer()],
      ['image/webp', await blank().webp().toBuffer()], // VP8 (lossy)
      ['image/webp', await blank().webp({ lossless: true }).toBuffer()], // VP8L
      ['image/webp', await blank(4).webp().toBuffer()] // VP8X (alpha)
    ]
    for (const [mediaType, bytes] of images) {
      expect(readImageInfo(bytes), mediaType).toEqual({ mediaType, width: 37, height: 21 })
    }
  })

  it('finds a JPEG size behind large metadata segments', async () => {
    const jpeg = await blank().jpeg().withMetadata({ exif: { IFD0: { ImageDescription: 'x'.repeat(20_000) } } }).toBuffer()
    expect(readImageInfo(jpeg)).toEqual({ mediaType: 'image/jpeg', width: 37, height: 21 })
  })

  it('says null for anything else, and for cut-off headers', async () => {
    const png = await blank().png().toBuffer()
    expect(readImageInfo(Buffer.from('just some text, not an image'))).toBeNull()
    expect(readImageInfo(Buffer.from('%PDF-1.7\n'))).toBeNull()
    expect(readImageInfo(new Uint8Array())).toBeNull()
    expect(readImageInfo(png.subarray(0, 20))).toBeNull()
    expect(readImageInfo((await blank().jpeg().toBuffer()).subarray(0, 30))).toBeNull()
  })
})
