import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { ImageMediaTypeSchema } from '../../shared'
import type { ToolAttachment, ToolOutput } from '../tools'

/** The most one result may carry in attachments (images and files from a server). */
const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024

/**
 * An MCP result as a tool output (docs/tools.md, "MCP servers"): text stays text, images become
 * image attachments (the timeline shows them, a model that takes images gets them), embedded
 * resources become text or file attachments, links are named, and structured content is added as
 * JSON when the text does not already say it.
 */
export function mapCallResult(result: CallToolResult): ToolOutput {
  const parts: string[] = []
  const attachments: ToolAttachment[] = []
  let bytes = 0
  const attach = (attachment: ToolAttachment, what: string): void => {
    if (bytes + attachment.data.byteLength > MAX_ATTACHMENT_BYTES) {
      parts.push(`[${what} left out: the result's attachments are over ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB]`)
      return
    }
    bytes += attachment.data.byteLength
    attachments.push(attachment)
  }
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        parts.push(item.text)
        break
      case 'image': {
        const mediaType = ImageMediaTypeSchema.safeParse(item.mimeType)
        const data = Buffer.from(item.data, 'base64')
        if (mediaType.success) {
          attach({ kind: 'image', mediaType: mediaType.data, data, name: `image-${attachments.length + 1}` }, `image (${item.mimeType})`)
        } else attach({ kind: 'file', mediaType: item.mimeType, data, name: `image-${attachments.length + 1}` }, `image (${item.mimeType})`)
        break
      }
      case 'audio':
        attach({ kind: 'file', mediaType: item.mimeType, data: Buffer.from(item.data, 'base64'), name: `audio-${attachments.length + 1}` }, `audio (${item.mimeType})`)
        parts.push(`[audio (${item.mimeType}) attached]`)
        break
      case 'resource': {
        const resource = item.resource
        if ('text' in resource && typeof resource.text === 'string') {
          parts.push(`Resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}:\n${resource.text}`)
        } else if ('blob' in resource && typeof resource.blob === 'string') {
          const name = resource.uri.split('/').pop() || 'resource'
          attach({ kind: 'file', mediaType: resource.mimeType ?? 'application/octet-stream', data: Buffer.from(resource.blob, 'base64'), name }, `resource ${resource.uri}`)
          parts.push(`[resource ${resource.uri} (${resource.mimeType ?? 'binary'}) attached as ${name}]`)
        }
        break
      }
      case 'resource_link':
        parts.push(`Resource link: ${item.name} <${item.uri}>${item.description ? ` — ${item.description}` : ''}`)
        break
      default:
        parts.push(`[content of type "${(item as { type: string }).type}" that DeskClaw does not show]`)
    }
  }
  const text = parts.join('\n')
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent, null, 2)
    // Servers usually repeat structured content as text (the spec asks them to); say it only once.
    if (!sameJson(text, result.structuredContent)) parts.push(`Structured content:\n${json}`)
  }
  const forLlm = parts.join('\n') || (result.isError ? 'The tool failed without saying why.' : 'The tool returned nothing.')
  return { forLlm, isError: result.isError === true, ...(attachments.length > 0 ? { attachments } : {}) }
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value)
  } catch {
    return false
  }
}
