import { describe, expect, it } from 'vitest'
import { ATTACHMENT_LIMITS, bridgeCalls, MessageAttachmentsSchema } from '../../../src/shared'

const base64Of = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64')
const image = (bytes = 10, mediaType = 'image/png') => ({ kind: 'image', name: 'photo.png', mediaType, data: base64Of(bytes) })
const text = (content = 'hello', bytes = content.length) => ({ kind: 'text', name: 'notes.md', text: content, bytes })
const valid = (attachments: unknown) => MessageAttachmentsSchema.safeParse(attachments).success

describe('the attachments agent.send takes', () => {
  it('takes images of the four formats and text files', () => {
    for (const mediaType of ['image/png', 'image/jpeg', 'image/webp', 'image/gif']) expect(valid([image(10, mediaType)]), mediaType).toBe(true)
    expect(valid([text()])).toBe(true)
    expect(valid([])).toBe(true)
  })

  it('refuses other media types, bad base64 and names with folders or control characters', () => {
    for (const mediaType of ['image/bmp', 'image/svg+xml', 'application/pdf', 'text/plain']) {
      expect(valid([image(10, mediaType)]), mediaType).toBe(false)
    }
    expect(valid([{ ...image(), data: 'not base64!' }])).toBe(false)
    expect(valid([{ ...image(), name: '../etc/passwd' }])).toBe(false)
    expect(valid([{ ...image(), name: 'a\nb.png' }])).toBe(false)
    expect(valid([{ ...image(), name: '  ' }])).toBe(false)
    expect(valid([{ kind: 'pdf', name: 'x.pdf', data: base64Of(3) }])).toBe(false)
  })

  it('limits an image to 10 MB and the text of a file to 200 KB', () => {
    expect(valid([image(ATTACHMENT_LIMITS.imageBytes)])).toBe(true)
    expect(valid([image(ATTACHMENT_LIMITS.imageBytes + 1)])).toBe(false)
    expect(valid([text('x'.repeat(ATTACHMENT_LIMITS.textBytes), 5_000_000)])).toBe(true)
    expect(valid([text('x'.repeat(ATTACHMENT_LIMITS.textBytes + 1))])).toBe(false)
    expect(valid([{ ...text(), bytes: -1 }])).toBe(false)
  })

  it('limits a message to 10 attachments and 30 MB in all', () => {
    expect(valid(Array.from({ length: ATTACHMENT_LIMITS.perMessage }, () => text()))).toBe(true)
    expect(valid(Array.from({ length: ATTACHMENT_LIMITS.perMessage + 1 }, () => text()))).toBe(false)
    const nineMb = image(9 * 1024 * 1024)
    expect(valid([nineMb, nineMb, nineMb])).toBe(true)
    expect(valid([nineMb, nineMb, nineMb, nineMb])).toBe(false)
  })

  it('is part of agent.send, which stays valid without it', () => {
    const input = bridgeCalls['agent.send'].input
    expect(input.safeParse({ conversationId: 'c', text: 'hi' }).success).toBe(true)
    expect(input.safeParse({ conversationId: 'c', text: 'hi', attachments: [image()] }).success).toBe(true)
    expect(input.safeParse({ conversationId: 'c', text: 'hi', attachments: [image(10, 'image/tiff')] }).success).toBe(false)
  })
})
