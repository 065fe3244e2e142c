import type { ChatMessage, ToolAttachmentRef } from '../../shared'
import type { MessageAttachmentRow } from './statements'

/**
 * Gives each user message the attachments stored under its id (docs/architecture.md,
 * "Attachments in messages"). Their size in pixels is not stored: only what the table holds.
 */
export function withMessageAttachments(messages: ChatMessage[], rows: readonly MessageAttachmentRow[]): ChatMessage[] {
  if (rows.length === 0) return messages
  const byMessage = new Map<string, ToolAttachmentRef[]>()
  for (const row of rows) {
    const ref: ToolAttachmentRef = { id: row.id, kind: row.kind, mediaType: row.media_type, bytes: row.bytes, ...(row.name ? { name: row.name } : {}) }
    byMessage.set(row.message_id, [...(byMessage.get(row.message_id) ?? []), ref])
  }
  return messages.map((message) => {
    const attachments = byMessage.get(message.id)
    return attachments ? { ...message, attachments } : message
  })
}
