/** The tool catalogue front doors show tools with, and the attachments tools returned. */
import { z } from 'zod'
import type { ToolInfo, ToolMessages } from '../tool-text'
import { defineCall } from './define-call'

export const ToolMessagesSchema: z.ZodType<ToolMessages> = z.object({
  en: z.record(z.string(), z.string()),
  'zh-CN': z.record(z.string(), z.string())
})

export const ToolInfoSchema: z.ZodType<ToolInfo> = z.object({
  name: z.string(),
  category: z.string(),
  access: z.enum(['read', 'write', 'execute']),
  subjectKind: z.enum(['command', 'path', 'url', 'device', 'chat', 'server']).optional(),
  messages: ToolMessagesSchema
})

export const AttachmentSchema = z.object({
  id: z.string(),
  kind: z.enum(['image', 'file']),
  mediaType: z.string(),
  name: z.string().nullable(),
  /** Base64 of the bytes. */
  data: z.string()
})
export type Attachment = z.infer<typeof AttachmentSchema>

export const toolCalls = {
  /** Every tool the agent has now, with its message tables; `tools_changed` says when to ask again. */
  'tools.list': defineCall(z.object({}), z.array(ToolInfoSchema)),
  'attachments.get': defineCall(z.object({ id: z.string().min(1).max(100) }), AttachmentSchema)
} as const
