/**
 * What the composer makes of a file before anything is read or sent: which kind of attachment it
 * is, whether it still fits the message, and the bridge form of it. Pure, so it is unit-tested
 * under Node (test/unit/renderer/attachment-files.test.ts); the limits are the bridge's own
 * (docs/architecture.md, "Attachments in messages").
 */
import {
  ATTACHMENT_LIMITS,
  attachmentInputBytes,
  isAttachmentImageType,
  type AttachmentImageType,
  type MessageAttachmentInput
} from '../../../../../shared/message-attachments'

export type DraftAttachment =
  | {
      id: string
      kind: 'image'
      name: string
      /** The file's size in bytes. */
      size: number
      mediaType: AttachmentImageType
      /** Base64 of the bytes. */
      data: string
      /** A `data:` URL for the thumbnail (the CSP allows data: images, not blob:). */
      url: string
    }
  | {
      id: string
      kind: 'text'
      name: string
      size: number
      /** The file's first `ATTACHMENT_LIMITS.textBytes`, decoded. */
      text: string
      /** Only the start of the file is sent. */
      truncated: boolean
      /** How the text starts, on one line. */
      preview?: string
      /** Made from a long paste (the chip says so and shows how it starts). */
      pasted?: boolean
    }

/** Why a file was not attached; the composer says it in the UI language. */
export type AttachmentProblem =
  | { code: 'imageTooLarge'; name: string; size: number }
  | { code: 'unsupported'; name: string }
  | { code: 'unreadable'; name: string }
  | { code: 'tooMany'; name: string }
  | { code: 'totalTooLarge'; name: string }

/** What to do with a file, from its type and size alone (before reading it). */
export type FilePlan =
  | { kind: 'image'; mediaType: AttachmentImageType }
  | { kind: 'text' }
  | { kind: 'refuse'; problem: AttachmentProblem }

export function planFile(file: { name: string; type: string; size: number }): FilePlan {
  const type = file.type.toLowerCase()
  if (isAttachmentImageType(type)) {
    return file.size > ATTACHMENT_LIMITS.imageBytes
      ? { kind: 'refuse', problem: { code: 'imageTooLarge', name: file.name, size: file.size } }
      : { kind: 'image', mediaType: type }
  }
  // Other images (BMP, HEIC, TIFF…) no vision API takes; SVG is text, and goes in as such.
  if (type.startsWith('image/') && type !== 'image/svg+xml') {
    return { kind: 'refuse', problem: { code: 'unsupported', name: file.name } }
  }
  // Anything else is a text file if its start reads as UTF-8 text (decodeTextStart decides).
  return { kind: 'text' }
}

/**
 * The text of a file's first bytes, or null when they are not UTF-8 text (a NUL byte, or an
 * invalid sequence). A character cut by the end of the slice is dropped, not an error.
 */
export function decodeTextStart(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true })
  } catch {
    return null
  }
}

/** A file name the bridge accepts: no folders, no control characters, at most 255 characters. */
export function cleanFileName(name: string, fallback: string): string {
  const cleaned = Array.from(name.replace(/[\p{Cc}/\\]+/gu, '_').trim()).slice(0, 255).join('')
  return cleaned || fallback
}

export function toAttachmentInput(attachment: DraftAttachment): MessageAttachmentInput {
  return attachment.kind === 'image'
    ? { kind: 'image', name: attachment.name, mediaType: attachment.mediaType, data: attachment.data }
    : { kind: 'text', name: attachment.name, text: attachment.text, bytes: attachment.size }
}

/** Whether one more attachment still fits the message (count, then total size); null: it does. */
export function admitAttachment(items: readonly DraftAttachment[], candidate: DraftAttachment): AttachmentProblem | null {
  if (items.length >= ATTACHMENT_LIMITS.perMessage) return { code: 'tooMany', name: candidate.name }
  const total = [...items, candidate].reduce((sum, item) => sum + attachmentInputBytes(toAttachmentInput(item)), 0)
  return total > ATTACHMENT_LIMITS.totalBytes ? { code: 'totalTooLarge', name: candidate.name } : null
}

/**
 * A paste longer than this becomes a text attachment instead of composer text: the composer's text
 * has a hard limit (the bridge's 100,000 characters) and a wall of text buries the question
 * (issue 22, "A long paste is cut silently").
 */
export const PASTE_AS_FILE_CHARS = 5_000

/** `pasted-text.txt`, or `pasted-text-2.txt`… when the draft already has that name. */
export function pastedFileName(taken: readonly string[]): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? 'pasted-text.txt' : `pasted-text-${n}.txt`
    if (!taken.includes(name)) return name
  }
}

/** The start of a text on one line, for a chip's preview. */
export function textPreview(text: string, length = 80): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > length ? `${line.slice(0, length - 1)}…` : line
}
