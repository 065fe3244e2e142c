import type { ModelMessage, TextPart, UserContent } from 'ai'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  cutUtf8,
  loadFromPrepared,
  prepareAttachments,
  resolveUserContent,
  unseenImageCount,
  userContentForHistory,
  withAttachedImages,
  type PreparedAttachment
} from '../../../src/main/attachments'
import { ATTACHMENT_LIMITS, type MessageAttachmentInput } from '../../../src/shared'

let png: Buffer
let jpeg: Buffer
beforeAll(async () => {
  const canvas = () => sharp({ create: { width: 1280, height: 800, channels: 3, background: '#4f5ce5' } })
  png = await canvas().png().toBuffer()
  jpeg = await canvas().jpeg().toBuffer()
})

const imageInput = (name = 'photo.png', bytes: Buffer = png): MessageAttachmentInput => ({
  kind: 'image',
  name,
  mediaType: 'image/png',
  data: bytes.toString('base64')
})
const textInput = (name: string, text: string, bytes = Buffer.byteLength(text)): MessageAttachmentInput => ({ kind: 'text', name, text, bytes })

/** The model's content for these attachments, as the first turn builds it. */
function firstTurn(text: string, attachments: PreparedAttachment[], acceptsImages: boolean): UserContent {
  return resolveUserContent(userContentForHistory(text, attachments), { acceptsImages, load: loadFromPrepared(attachments) })
}

describe('the user message with attachments', () => {
  it('inlines a text file after the text, delimited and named', () => {
    const prepared = prepareAttachments([textInput('notes.md', 'line one\nline two\n')])
    const content = firstTurn('Summarise this', prepared, true)
    expect(content).toBe('Summarise this\n\nAttached file “notes.md” (18 B):\n```\nline one\nline two\n```')
    expect(prepared[0]!.ref).toMatchObject({ kind: 'file', mediaType: 'text/plain', name: 'notes.md', bytes: 18 })
  })

  it('fences a file with more backticks than it contains, so its content cannot end the block', () => {
    const content = firstTurn('Look', prepareAttachments([textInput('README.md', 'Use ```` in Markdown')]), true) as string
    expect(content).toContain('\n`````\nUse ```` in Markdown\n`````')
  })

  it('cuts a text file at 200 KB of UTF-8, on a character boundary, and says so', () => {
    // 3-byte characters: the limit falls inside one.
    const long = '中'.repeat(ATTACHMENT_LIMITS.textBytes / 3 + 10)
    const [file] = prepareAttachments([textInput('big.txt', long.slice(0, ATTACHMENT_LIMITS.textBytes), 1_500_000)])
    expect(file!.kind).toBe('text')
    if (file!.kind !== 'text') return
    expect(Buffer.byteLength(file.text)).toBeLessThanOrEqual(ATTACHMENT_LIMITS.textBytes)
    expect(file.text).toBe('中'.repeat(Math.floor(ATTACHMENT_LIMITS.textBytes / 3)))
    expect(file.truncated).toBe(true)
    const content = firstTurn('', [file], false) as string
    expect(content.startsWith('Attached file “big.txt” (1.4 MB):')).toBe(true)
    expect(content).toContain('[“big.txt” was cut here: only its first 200 KB of 1.4 MB are included.]')
  })

  it('does not call a file that fits truncated', () => {
    const [file] = prepareAttachments([textInput('small.txt', 'x'.repeat(ATTACHMENT_LIMITS.textBytes))])
    expect(file).toMatchObject({ kind: 'text', truncated: false })
    expect(firstTurn('', [file!], true)).not.toContain('was cut here')
  })

  it('gives a model that takes images an image part after its name and size', () => {
    const prepared = prepareAttachments([imageInput()])
    const content = firstTurn('What is this?', prepared, true)
    expect(Array.isArray(content)).toBe(true)
    const parts = content as Exclude<UserContent, string>
    expect(parts.map((part) => part.type)).toEqual(['text', 'text', 'image'])
    expect((parts[0] as TextPart).text).toBe('What is this?')
    expect((parts[1] as TextPart).text).toBe('[image photo.png (1280×800):]')
    expect(parts[2]).toMatchObject({ type: 'image', mediaType: 'image/png' })
    expect(Buffer.from((parts[2] as { image: Uint8Array }).image).equals(png)).toBe(true)
    // Nothing of ours reaches the provider.
    expect(parts.some((part) => 'providerOptions' in part)).toBe(false)
  })

  it('tells a text-only model in one string that there is an image it cannot see', () => {
    const prepared = prepareAttachments([imageInput(), textInput('a.txt', 'alpha')])
    const content = firstTurn('Compare', prepared, false)
    expect(content).toBe(
      'Compare\n\nAttached file “a.txt” (5 B):\n```\nalpha\n```\n[image photo.png (1280×800) attached; this model cannot see images]'
    )
    expect(unseenImageCount(prepared, false)).toBe(1)
    expect(unseenImageCount(prepared, true)).toBe(0)
  })

  it('keeps the history small: images by attachment id, never their bytes', () => {
    const prepared = prepareAttachments([imageInput()])
    const stored = JSON.stringify(userContentForHistory('What is this?', prepared))
    expect(stored.length).toBeLessThan(500)
    expect(stored).toContain(prepared[0]!.ref.id)
    expect(userContentForHistory('plain', [])).toBe('plain')
  })

  it('puts the images back into later turns from the store, or a note when the model or the store cannot', () => {
    const prepared = prepareAttachments([imageInput()])
    const history: ModelMessage[] = [
      { role: 'user', content: userContentForHistory('What is this?', prepared) },
      { role: 'assistant', content: 'A blue rectangle.' }
    ]
    const fromStore = loadFromPrepared(prepared)
    const seen = withAttachedImages(history, { acceptsImages: true, load: fromStore })
    expect((seen[0]!.content as Array<{ type: string }>).map((part) => part.type)).toEqual(['text', 'text', 'image'])
    expect(seen[1]).toBe(history[1]) // untouched
    const unseen = withAttachedImages(history, { acceptsImages: false, load: fromStore })
    expect(unseen[0]!.content).toBe('What is this?\n[image photo.png (1280×800) attached; this model cannot see images]')
    const gone = withAttachedImages(history, { acceptsImages: true, load: () => null })
    expect(gone[0]!.content).toBe('What is this?\n[image photo.png (1280×800) attached; it is no longer available]')
  })

  it('takes an image for what its bytes are, and refuses bytes that are no image', () => {
    const [misnamed] = prepareAttachments([imageInput('photo.png', jpeg)])
    expect(misnamed).toMatchObject({ kind: 'image', mediaType: 'image/jpeg', width: 1280, height: 800 })
    expect(misnamed!.ref).toMatchObject({ kind: 'image', mediaType: 'image/jpeg', width: 1280, height: 800, bytes: jpeg.byteLength })
    expect(() => prepareAttachments([imageInput('fake.png', Buffer.from('GIF? no, text'))])).toThrow(/not a PNG, JPEG, WebP or GIF image/)
  })

  it('cutUtf8 never splits a character', () => {
    expect(cutUtf8('héllo', 2)).toBe('h')
    expect(cutUtf8('héllo', 3)).toBe('hé')
    expect(cutUtf8('😀x', 3)).toBe('')
    expect(cutUtf8('short', 100)).toBe('short')
  })
})
