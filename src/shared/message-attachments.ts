/**
 * What a user's message may carry besides its text, as `agent.send` takes it: images (sent to
 * vision models as image parts) and text files (inlined into the prompt). The limits are shared by
 * the composer (which refuses early, with a reason) and the bridge (which refuses anything else);
 * docs/architecture.md, "Attachments in messages".
 */
import { z } from 'zod'

export const ATTACHMENT_LIMITS = {
  /** Bytes of one image. */
  imageBytes: 10 * 1024 * 1024,
  /** Bytes of one text file that are inlined into the prompt; a longer file is cut there, with a note. */
  textBytes: 200 * 1024,
  /** Attachments on one message. */
  perMessage: 10,
  /**
   * All of one message's attachments together: hosted APIs refuse larger requests (Anthropic's
   * limit is 32 MB), and the whole message crosses the bridge as one frame.
   */
  totalBytes: 30 * 1024 * 1024
} as const

/** The image formats every vision API takes. */
export const ATTACHMENT_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const
export type AttachmentImageType = (typeof ATTACHMENT_IMAGE_TYPES)[number]

export function isAttachmentImageType(mediaType: string): mediaType is AttachmentImageType {
  return (ATTACHMENT_IMAGE_TYPES as readonly string[]).includes(mediaType)
}

/** Bytes that a (valid, padded) base64 string decodes to, without decoding it. */
export function base64ByteLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0
  return Math.floor(base64.length / 4) * 3 - padding
}

const MB = 1024 * 1024

/** A file name as shown: no path, no control characters. */
const AttachmentNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[^\p{Cc}/\\]+$/u, 'a file name without folders or control characters')

export const ImageAttachmentInputSchema = z.object({
  kind: z.literal('image'),
  name: AttachmentNameSchema,
  mediaType: z.enum(ATTACHMENT_IMAGE_TYPES),
  /** The image's bytes, base64. */
  data: z
    .base64()
    .refine((data) => base64ByteLength(data) <= ATTACHMENT_LIMITS.imageBytes, `an image may be at most ${ATTACHMENT_LIMITS.imageBytes / MB} MB`)
})
export type ImageAttachmentInput = z.infer<typeof ImageAttachmentInputSchema>

export const TextAttachmentInputSchema = z.object({
  kind: z.literal('text'),
  name: AttachmentNameSchema,
  /**
   * The file's text: the composer reads at most its first `textBytes` (UTF-16 length never
   * exceeds UTF-8 bytes, so this bound holds for any such text); main cuts to `textBytes` of UTF-8.
   */
  text: z.string().max(ATTACHMENT_LIMITS.textBytes),
  /** The whole file's size: more than the text's means it was cut. */
  bytes: z.number().int().min(0)
})
export type TextAttachmentInput = z.infer<typeof TextAttachmentInputSchema>

export const MessageAttachmentInputSchema = z.discriminatedUnion('kind', [ImageAttachmentInputSchema, TextAttachmentInputSchema])
export type MessageAttachmentInput = z.infer<typeof MessageAttachmentInputSchema>

/** Bytes one attachment adds to the message (a text file counts what is sent, not the whole file). */
export function attachmentInputBytes(attachment: MessageAttachmentInput): number {
  return attachment.kind === 'image' ? base64ByteLength(attachment.data) : attachment.text.length
}

export const MessageAttachmentsSchema = z
  .array(MessageAttachmentInputSchema)
  .max(ATTACHMENT_LIMITS.perMessage, `at most ${ATTACHMENT_LIMITS.perMessage} attachments per message`)
  .refine(
    (attachments) => attachments.reduce((sum, attachment) => sum + attachmentInputBytes(attachment), 0) <= ATTACHMENT_LIMITS.totalBytes,
    `a message's attachments may add up to at most ${ATTACHMENT_LIMITS.totalBytes / MB} MB`
  )
