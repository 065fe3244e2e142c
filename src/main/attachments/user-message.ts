import type { ImagePart, ModelMessage, TextPart, UserContent } from 'ai'
import { ATTACHMENT_LIMITS } from '../../shared'
import type { PreparedAttachment } from './prepare'

/** Where a stored image part names its attachment (a provider namespace no provider reads). */
const MARKER = 'deskclaw'

interface ImageMarker {
  attachmentId: string
  name: string
  width?: number
  height?: number
}

/** An image's bytes by attachment id: the prepared ones on the first turn, the store's later. */
export type LoadImage = (attachmentId: string) => { mediaType: string; data: Uint8Array } | null

/**
 * The user's message as model history keeps it (docs/architecture.md, "Attachments in messages"):
 * the text, then each text file inlined in a delimited block; each image a text part that names it
 * and carries its attachment id. The bytes stay in the attachments table, and every turn puts them
 * back (`withAttachedImages`) as the model of that turn can take them.
 */
export function userContentForHistory(text: string, attachments: readonly PreparedAttachment[]): UserContent {
  const blocks = [text]
  for (const attachment of attachments) if (attachment.kind === 'text') blocks.push(inlinedFile(attachment))
  const body = blocks.filter((block) => block.length > 0).join('\n\n')
  const images = attachments.flatMap((attachment) => (attachment.kind === 'image' ? [imageMarkerPart(attachment)] : []))
  if (images.length === 0) return body
  return [...(body ? [{ type: 'text' as const, text: body }] : []), ...images]
}

/**
 * Puts the images back into stored user messages: image parts for a model that takes images,
 * else a note that there was one it cannot see. Messages without markers come back unchanged.
 */
export function withAttachedImages(messages: readonly ModelMessage[], options: { acceptsImages: boolean; load: LoadImage }): ModelMessage[] {
  return messages.map((message) =>
    message.role === 'user' && Array.isArray(message.content) && message.content.some((part) => markerOf(part) !== null)
      ? { ...message, content: resolveUserContent(message.content, options) }
      : message
  )
}

/** One user content with its markers resolved (see withAttachedImages). */
export function resolveUserContent(content: UserContent, options: { acceptsImages: boolean; load: LoadImage }): UserContent {
  if (typeof content === 'string') return content
  const parts: Array<Exclude<UserContent, string>[number]> = []
  for (const part of content) {
    const marker = markerOf(part)
    if (!marker) {
      parts.push(part)
      continue
    }
    const label = imageLabel(marker)
    const image = options.acceptsImages ? options.load(marker.attachmentId) : null
    if (image) {
      parts.push({ type: 'text', text: `[image ${label}:]` })
      parts.push({ type: 'image', image: image.data, mediaType: image.mediaType } satisfies ImagePart)
    } else {
      const why = options.acceptsImages ? 'it is no longer available' : 'this model cannot see images'
      parts.push({ type: 'text', text: `[image ${label} attached; ${why}]` })
    }
  }
  // Text only: one string, which every OpenAI-compatible server takes (some refuse content arrays).
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => (part as TextPart).text).join('\n')
  return parts
}

/** How many images of this message the model only gets a note about. */
export function unseenImageCount(attachments: readonly PreparedAttachment[], acceptsImages: boolean): number {
  return acceptsImages ? 0 : attachments.filter((attachment) => attachment.kind === 'image').length
}

/** The prepared attachments' bytes by id (the first turn, before anything is read back). */
export function loadFromPrepared(attachments: readonly PreparedAttachment[]): LoadImage {
  return (id) => {
    const found = attachments.find((attachment) => attachment.ref.id === id)
    return found?.kind === 'image' ? { mediaType: found.mediaType, data: found.data } : null
  }
}

function imageMarkerPart(image: Extract<PreparedAttachment, { kind: 'image' }>): TextPart {
  const marker: ImageMarker = { attachmentId: image.ref.id, name: image.name, width: image.width, height: image.height }
  return { type: 'text', text: `[image ${imageLabel(marker)} attached]`, providerOptions: { [MARKER]: { ...marker } } }
}

function markerOf(part: Exclude<UserContent, string>[number]): ImageMarker | null {
  if (part.type !== 'text') return null
  const value = part.providerOptions?.[MARKER] as Partial<ImageMarker> | undefined
  if (!value || typeof value.attachmentId !== 'string') return null
  return {
    attachmentId: value.attachmentId,
    name: typeof value.name === 'string' ? value.name : 'image',
    width: typeof value.width === 'number' ? value.width : undefined,
    height: typeof value.height === 'number' ? value.height : undefined
  }
}

/** "photo.png (1280×800)". */
function imageLabel(marker: ImageMarker): string {
  return marker.width && marker.height ? `${marker.name} (${marker.width}×${marker.height})` : marker.name
}

/** A text file as a fenced block under its name; the fence is longer than any backtick run inside. */
function inlinedFile(file: Extract<PreparedAttachment, { kind: 'text' }>): string {
  const longest = Math.max(0, ...Array.from(file.text.matchAll(/`+/g), (match) => match[0].length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  const lines = [`Attached file “${file.name}” (${formatBytes(file.fileBytes)}):`, fence, file.text.replace(/\n$/, ''), fence]
  if (file.truncated) {
    lines.push(
      `[“${file.name}” was cut here: only its first ${formatBytes(ATTACHMENT_LIMITS.textBytes)} of ${formatBytes(file.fileBytes)} are included.]`
    )
  }
  return lines.join('\n')
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
}
