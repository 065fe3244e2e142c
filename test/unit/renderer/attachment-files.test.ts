import { describe, expect, it } from 'vitest'
import {
  admitAttachment,
  cleanFileName,
  decodeTextStart,
  type DraftAttachment,
  planFile,
  toAttachmentInput
} from '../../../src/renderer/src/features/chat/attachments/files'
import { ATTACHMENT_LIMITS, MessageAttachmentsSchema } from '../../../src/shared'

const MB = 1024 * 1024
const text = (n: number, size = 10): DraftAttachment => ({ id: `t${n}`, kind: 'text', name: `f${n}.txt`, size, text: 'x'.repeat(size), truncated: false })
const image = (n: number, bytes: number): DraftAttachment => {
  const data = Buffer.alloc(bytes).toString('base64')
  return { id: `i${n}`, kind: 'image', name: `p${n}.png`, size: bytes, mediaType: 'image/png', data, url: `data:image/png;base64,${data}` }
}

describe('what the composer makes of a file', () => {
  it('plans images by type and size, other images refused, everything else tried as text', () => {
    expect(planFile({ name: 'a.png', type: 'image/png', size: 5 })).toEqual({ kind: 'image', mediaType: 'image/png' })
    expect(planFile({ name: 'a.JPG', type: 'IMAGE/JPEG', size: 5 })).toEqual({ kind: 'image', mediaType: 'image/jpeg' })
    expect(planFile({ name: 'big.webp', type: 'image/webp', size: ATTACHMENT_LIMITS.imageBytes + 1 })).toEqual({
      kind: 'refuse',
      problem: { code: 'imageTooLarge', name: 'big.webp', size: ATTACHMENT_LIMITS.imageBytes + 1 }
    })
    expect(planFile({ name: 'a.heic', type: 'image/heic', size: 5 })).toEqual({ kind: 'refuse', problem: { code: 'unsupported', name: 'a.heic' } })
    expect(planFile({ name: 'a.svg', type: 'image/svg+xml', size: 5 })).toEqual({ kind: 'text' })
    expect(planFile({ name: 'Makefile', type: '', size: 5 })).toEqual({ kind: 'text' })
  })

  it('reads UTF-8 text, refuses binary, and drops a character cut by the end of the slice', () => {
    expect(decodeTextStart(new TextEncoder().encode('héllo 世界'))).toBe('héllo 世界')
    expect(decodeTextStart(Uint8Array.from([0x68, 0x69, 0x00, 0x21]))).toBeNull()
    expect(decodeTextStart(Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0xe2, 0xe3, 0xcf, 0xd3]))).toBeNull()
    const cut = new TextEncoder().encode('ab世').subarray(0, 4) // '世' is 3 bytes: 2 of them remain
    expect(decodeTextStart(cut)).toBe('ab')
  })

  it('cleans names to what the bridge accepts', () => {
    expect(cleanFileName('a/b\\c\n.txt', 'x')).toBe('a_b_c_.txt')
    expect(cleanFileName('   ', 'image.png')).toBe('image.png')
    expect(Array.from(cleanFileName('名'.repeat(300), 'x'))).toHaveLength(255)
  })

  it('admits up to 10 attachments and 30 MB, like the bridge', () => {
    const nine = Array.from({ length: 9 }, (_, n) => text(n))
    expect(admitAttachment(nine, text(9))).toBeNull()
    expect(admitAttachment([...nine, text(9)], text(10))).toEqual({ code: 'tooMany', name: 'f10.txt' })
    const big = [image(1, 9 * MB), image(2, 9 * MB), image(3, 9 * MB)]
    expect(admitAttachment(big.slice(0, 2), big[2]!)).toBeNull()
    expect(admitAttachment(big, image(4, 4 * MB))).toEqual({ code: 'totalTooLarge', name: 'p4.png' })
    // What the composer admits, the bridge's schema takes.
    expect(MessageAttachmentsSchema.safeParse([...big, text(5)].map(toAttachmentInput)).success).toBe(true)
  })
})
