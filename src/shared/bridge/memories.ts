/**
 * Memories over the bridge (docs/tools.md, "Memory"): what the agent remembers across
 * conversations, listed, searched, edited and deleted in the Memory panel; a save undone from the
 * timeline; and the notices the `notify` tool and scheduled runs show (docs/tools.md, "Notifications").
 */
import { z } from 'zod'
import { defineCall } from './define-call'

export const MEMORY_TEXT_MAX = 2000

export const MemoryScopeSchema = z.enum(['global', 'workspace'])
export type MemoryScope = z.infer<typeof MemoryScopeSchema>

export const MemorySchema = z.object({
  id: z.string(),
  text: z.string(),
  scope: MemoryScopeSchema,
  /** The folder a workspace memory belongs to; null for a global one. */
  workspace: z.string().nullable(),
  /** Where it was saved: the conversation, run, tool call and the question it answered (null when saved by the user in the panel). */
  source: z
    .object({
      conversationId: z.string(),
      runId: z.string().nullable(),
      callId: z.string().nullable(),
      messageId: z.string().nullable()
    })
    .nullable(),
  createdAt: z.number(),
  updatedAt: z.number()
})
export type Memory = z.infer<typeof MemorySchema>

/** The panel's scope filter: every memory, only global ones, or only those of a workspace. */
export const MemoryFilterSchema = z.enum(['all', 'global', 'workspace'])
export type MemoryFilter = z.infer<typeof MemoryFilterSchema>

const MemoryTextSchema = z.string().trim().min(1).max(MEMORY_TEXT_MAX)

export const memoryCalls = {
  /** Newest first; with a query, the best matches first (Chinese and English, docs/tools.md "Memory"). */
  'memories.list': defineCall(
    z.object({ query: z.string().max(500).optional(), filter: MemoryFilterSchema.optional(), limit: z.number().int().min(1).max(500).optional() }),
    z.object({ memories: z.array(MemorySchema), total: z.number().int() })
  ),
  'memories.update': defineCall(
    z.object({ id: z.string().min(1), text: MemoryTextSchema.optional(), scope: MemoryScopeSchema.optional(), workspace: z.string().min(1).optional() }),
    MemorySchema
  ),
  /** Deletes a memory: the panel's delete, and the timeline's "Undo" on a save. */
  'memories.delete': defineCall(z.object({ id: z.string().min(1) }), z.object({ deleted: z.boolean() })),
  /** The memories saved by tool calls of a conversation that still exist (the timeline offers to undo those saves). */
  'memories.savedIn': defineCall(z.object({ conversationId: z.string().min(1) }), z.object({ saves: z.array(z.object({ callId: z.string(), memoryId: z.string() })) }))
} as const

/** Why a notice is shown: the agent's notify tool, or a scheduled run's news. */
export const NoticeReasonSchema = z.enum(['agent', 'run_finished', 'run_failed', 'approval_waiting'])
export type NoticeReason = z.infer<typeof NoticeReasonSchema>

/** One notice for the person at this machine (docs/tools.md, "Notifications"). */
export const NoticeSchema = z.object({
  id: z.string(),
  reason: NoticeReasonSchema,
  /** The words to show: the model's own for `agent`; main's in English otherwise, with `text` for the UI's language. */
  title: z.string(),
  body: z.string(),
  /** A message code with params for notices main writes (the renderer shows it in its language). */
  text: z.object({ key: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() }).optional(),
  conversationId: z.string().optional(),
  runId: z.string().optional(),
  at: z.number()
})
export type Notice = z.infer<typeof NoticeSchema>

export const MemoriesChangedEventSchema = z.object({ kind: z.literal('memories_changed') })
export const NotificationEventSchema = z.object({ kind: z.literal('notification'), notice: NoticeSchema })
