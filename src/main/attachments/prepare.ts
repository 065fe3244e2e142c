import {
  AppError,
  ATTACHMENT_LIMITS,
  newId,
  type AttachmentImageType,
  type MessageAttachmentInput,
  type ToolAttachmentRef
} from '../../shared'
import { readImageInfo } from './image-info'

/** An attachment checked and ready to store and to put into the model message. */
export type PreparedAttachment =
  | {
      kind: 'image'
      ref: ToolAttachmentRef
      name: string
      mediaType: AttachmentImageType
      width: number
      height: number
      data: Uint8Array
    }
  | {
      kind: 'text'
      ref: ToolAttachmentRef
      name: string
      /** At most `ATTACHMENT_LIMITS.textBytes` of UTF-8. */
      text: string
      /** The whole file's size. */
      fileBytes: number
      /** Only the first `textBytes` of the file are in `text`. */
      truncated: boolean
      data: Uint8Array
    }

/**
 * Decodes what `agent.send` was given (already validated by MessageAttachmentsSchema) and gives
 * each attachment an id. An image is taken for what its header says it is (a browser names a
 * file's type after its extension); bytes that are no supported image are refused.
 */
export function prepareAttachments(inputs: readonly MessageAttachmentInput[]): PreparedAttachment[] {
  return inputs.map((input): PreparedAttachment => {
    if (input.kind === 'image') {
      const data = Buffer.from(input.data, 'base64')
      const info = readImageInfo(data)
      if (!info) {
        throw new AppError('VALIDATION_FAILED', `“${input.name}” is not a PNG, JPEG, WebP or GIF image.`)
      }
      const ref: ToolAttachmentRef = {
        id: newId('att'),
        kind: 'image',
        mediaType: info.mediaType,
        name: input.name,
        width: info.width,
        height: info.height,
        bytes: data.byteLength
      }
      return { kind: 'image', ref, name: input.name, ...info, data }
    }
    const cut = cutUtf8(input.text, ATTACHMENT_LIMITS.textBytes)
    const data = Buffer.from(cut, 'utf8')
    const ref: ToolAttachmentRef = { id: newId('att'), kind: 'file', mediaType: 'text/plain', name: input.name, bytes: data.byteLength }
    return {
      kind: 'text',
      ref,
      name: input.name,
      text: cut,
      fileBytes: Math.max(input.bytes, data.byteLength),
      truncated: cut.length < input.text.length || input.bytes > ATTACHMENT_LIMITS.textBytes,
      data
    }
  })
}

/** The longest start of `text` that is at most `maxBytes` of UTF-8, never splitting a character. */
export function cutUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8')
  if (bytes.byteLength <= maxBytes) return text
  let end = maxBytes
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end-- // a continuation byte: back to the character's start
  return bytes.subarray(0, end).toString('utf8')
}
