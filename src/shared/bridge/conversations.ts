/**
 * Conversations over the bridge: summaries, messages, tool-call records, runs, the full detail
 * snapshot, and the conversations.* calls.
 */
import { z } from 'zod'
import { AppErrorSchema, ApprovalRecordSchema, CompactionSchema, ContextFillSchema, ToolAttachmentRefSchema, ToolCallStatusSchema, ToolTextSchema, UsageSchema } from '../agent-events'
import { StepChangesSchema } from '../checkpoints'
import { VerdictSchema } from '../risk'
import { defineCall } from './define-call'
import { LanguageSchema } from './settings'

export const ConversationSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** The folder this conversation's tools work in; null: the workspace in Settings. */
  workspace: z.string().nullable(),
  /** The model this conversation talks to (the chat header's picker); null or absent: the model in Settings. */
  model: z.string().nullable().optional(),
  /** When the conversation was pinned (pinned ones list first); absent: not pinned. */
  pinnedAt: z.number().optional()
})
export type ConversationSummary = z.infer<typeof ConversationSummarySchema>

export const ChatMessageSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  runId: z.string().nullable(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  createdAt: z.number(),
  /** A user message's images and text files (docs/architecture.md, "Attachments in messages"). */
  attachments: z.array(ToolAttachmentRefSchema).optional(),
  /**
   * A user message: the run whose answer it follows; null for the first question (docs/architecture.md,
   * "Message versions"). Absent on answers and older records.
   */
  parentRunId: z.string().nullable().optional()
})
export type ChatMessage = z.infer<typeof ChatMessageSchema>

/** One step of a long call (`tool_progress`): a message code, whether it passed, what was read, the crop it checked. */
export const ToolStepSchema = z.object({
  step: z.string(),
  ok: z.boolean(),
  detail: z.string(),
  detailText: ToolTextSchema.optional(),
  attachment: ToolAttachmentRefSchema.optional(),
  at: z.number()
})
export type ToolStep = z.infer<typeof ToolStepSchema>

export const ToolCallRecordSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  runId: z.string(),
  tool: z.string(),
  args: z.unknown(),
  status: ToolCallStatusSchema,
  isError: z.boolean(),
  output: z.string(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  durationMs: z.number().nullable(),
  /** Which runtime ran it (shell tools), when it ran. */
  runtime: z.string().nullable().optional(),
  /** What the risk engine decided (allow | ask | deny), once judged. */
  verdict: VerdictSchema.nullable().optional(),
  /** The tool's one-line summary of the call (absent for invalid calls and older records). */
  summary: z.string().optional(),
  /** The summary as the tool's message code, as tool_call_started carried it (kept in the event log only). */
  summaryText: ToolTextSchema.optional(),
  /** Images and files the tool returned. */
  attachments: z.array(ToolAttachmentRefSchema).optional(),
  /** The result line the UI translates, as tool_call_completed carried it (kept in the event log only). */
  display: ToolTextSchema.optional(),
  /** The steps a long call reported (tool_progress), in order, read back from the event log. */
  steps: z.array(ToolStepSchema).optional(),
  /** How its approval was answered: who, at which front door, when, and why (absent: never asked, or not answered yet). */
  answered: ApprovalRecordSchema.optional(),
  /** What it changed in the workspace (docs/checkpoints.md), as tool_call_completed carried it. */
  changes: StepChangesSchema.optional(),
  /** Served from the run's result cache (docs/architecture.md, "Result cache and repeated writes"). */
  cached: z.boolean().optional(),
  /**
   * A delegate call's sub-agents, as their nested events were logged (docs/tools.md, "Sub-agents"):
   * the steps and ends only, so a reload shows the children inside the card as the live view did.
   */
  subagentEvents: z
    .array(z.object({ childRunId: z.string(), task: z.string(), event: z.object({ type: z.string(), runId: z.string(), at: z.number() }).passthrough() }))
    .optional()
})
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>

export const RunSummarySchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'cancelled', 'interrupted']),
  stopReason: z.string().nullable(),
  error: z.string().nullable(),
  /** run_failed's whole error (code, and the message code the UI translates), for runs that failed; older records have only `error`. */
  failure: AppErrorSchema.optional(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  /** Tokens the run's finished model calls used (cancelled and failed runs too); null when none were reported. */
  usage: UsageSchema.nullable(),
  /** "provider:model" as run_started carried it (what the run's tokens are priced by); absent for older records. */
  model: z.string().nullable().optional(),
  /** The question (user message) this run answers; several runs of one question are its regenerated versions. */
  answersMessageId: z.string().nullable().optional(),
  /** How full the context was at the run's latest request (context_usage), when the provider reported it. */
  context: ContextFillSchema.optional(),
  /** The run's compactions (context_compacted), with when they happened, for the timeline's markers. */
  compactions: z.array(CompactionSchema.extend({ at: z.number() })).optional()
})
export type RunSummary = z.infer<typeof RunSummarySchema>

export const ConversationDetailSchema = z.object({
  conversation: ConversationSummarySchema,
  messages: z.array(ChatMessageSchema),
  toolCalls: z.array(ToolCallRecordSchema),
  runs: z.array(RunSummarySchema)
})
export type ConversationDetail = z.infer<typeof ConversationDetailSchema>

/** One conversation a search found: where it matched, and the text around the match. */
export const ConversationSearchResultSchema = z.object({
  conversationId: z.string(),
  title: z.string(),
  /** What matched: the conversation's title, or one of its messages (`messageId`). */
  field: z.enum(['title', 'message']),
  messageId: z.string().optional(),
  /** The matching text with its surroundings (whitespace collapsed, '…' where it was cut). */
  snippet: z.string(),
  /** The matched parts of `snippet`, in order: UTF-16 offsets, `end` exclusive. */
  highlights: z.array(z.object({ start: z.number().int(), end: z.number().int() })),
  updatedAt: z.number(),
  pinnedAt: z.number().optional()
})
export type ConversationSearchResult = z.infer<typeof ConversationSearchResultSchema>

export const ConversationExportFormatSchema = z.enum(['markdown', 'json'])
export type ConversationExportFormat = z.infer<typeof ConversationExportFormatSchema>

/** A conversation as a file: what the renderer saves (a download in the web host). */
export const ConversationExportSchema = z.object({
  filename: z.string(),
  mediaType: z.string(),
  content: z.string()
})
export type ConversationExport = z.infer<typeof ConversationExportSchema>

export const conversationCalls = {
  'conversations.list': defineCall(z.object({}), z.array(ConversationSummarySchema)),
  'conversations.create': defineCall(
    z.object({
      title: z.string().max(200).optional(),
      /** An absolute folder for this conversation's tools (the palette's workspace picker); default: Settings'. */
      workspace: z.string().min(1).max(4096).optional()
    }),
    ConversationSummarySchema
  ),
  /** Folders used recently, most recent first; the Settings workspace is always one of them. */
  'workspaces.recent': defineCall(z.object({}), z.object({ workspaces: z.array(z.string()) })),
  'conversations.get': defineCall(
    z.object({ id: z.string() }),
    // lastEventSeq: the snapshot holds every agent event up to this seq; apply only later ones.
    ConversationDetailSchema.extend({ lastEventSeq: z.number().int() })
  ),
  'conversations.rename': defineCall(
    z.object({ id: z.string(), title: z.string().min(1).max(200) }),
    ConversationSummarySchema
  ),
  'conversations.delete': defineCall(z.object({ id: z.string() }), z.object({})),
  /** This conversation's own model (same provider and server as Settings); null: back to the model in Settings. */
  'conversations.setModel': defineCall(
    z.object({ id: z.string(), model: z.string().trim().min(1).max(200).nullable() }),
    ConversationSummarySchema
  ),
  /**
   * Full-text search over titles and message text: one result per conversation, best first (title
   * matches before message matches). Any text is a literal query; no search syntax.
   */
  'conversations.search': defineCall(
    z.object({ query: z.string().max(200), limit: z.number().int().min(1).max(50).optional() }),
    z.array(ConversationSearchResultSchema)
  ),
  /** Pinned conversations list first, most recently pinned on top; pinning is not activity. */
  'conversations.pin': defineCall(z.object({ id: z.string(), pinned: z.boolean() }), ConversationSummarySchema),
  /**
   * The conversation as Markdown (title, questions and answers, tool calls as collapsed summaries
   * with their status; headings in `language`) or as JSON (the full ConversationDetail).
   */
  'conversations.export': defineCall(
    z.object({
      id: z.string(),
      format: ConversationExportFormatSchema,
      language: LanguageSchema.optional(),
      /** The message versions on screen (fork → child id); Markdown exports that branch, JSON every version. */
      choices: z.record(z.string().max(200), z.string().max(200)).optional()
    }),
    ConversationExportSchema
  )
} as const
