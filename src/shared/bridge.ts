/**
 * The bridge contract (DESIGN §1): every call the renderer can make, with zod input and output,
 * and every event main pushes. Electron IPC and the web host's WebSocket serve the same table, so
 * the renderer cannot tell them apart. Renderer code must `import type` from here (values stay in main).
 */
import { z } from 'zod'
import {
  AgentEventSchema,
  ApprovalAnswerSchema,
  PendingApprovalSchema,
  ApprovalResolverSchema,
  ToolCallStatusSchema,
  UsageSchema
} from './agent-events'
import type { AppErrorShape } from './errors'
import { VerdictSchema } from './risk'

export const AutonomySchema = z.enum(['readonly', 'supervised', 'full'])
export type Autonomy = z.infer<typeof AutonomySchema>

export const ProviderKindSchema = z.enum(['openai', 'anthropic', 'openai-compatible'])
export type ProviderKind = z.infer<typeof ProviderKindSchema>

export const LanguageSchema = z.enum(['en', 'zh-CN'])

/** Where shell commands run (DESIGN §5). `auto`: docker, else bwrap / sandbox-exec, else native. */
export const RuntimeChoiceSchema = z.enum(['auto', 'docker', 'bwrap', 'native'])
export type RuntimeChoice = z.infer<typeof RuntimeChoiceSchema>
export type Language = z.infer<typeof LanguageSchema>

export const ConversationSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number()
})
export type ConversationSummary = z.infer<typeof ConversationSummarySchema>

export const ChatMessageSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  runId: z.string().nullable(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  createdAt: z.number()
})
export type ChatMessage = z.infer<typeof ChatMessageSchema>

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
  verdict: VerdictSchema.nullable().optional()
})
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>

export const RunSummarySchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'cancelled', 'interrupted']),
  stopReason: z.string().nullable(),
  error: z.string().nullable(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  usage: UsageSchema.nullable()
})
export type RunSummary = z.infer<typeof RunSummarySchema>

export const ConversationDetailSchema = z.object({
  conversation: ConversationSummarySchema,
  messages: z.array(ChatMessageSchema),
  toolCalls: z.array(ToolCallRecordSchema),
  runs: z.array(RunSummarySchema)
})
export type ConversationDetail = z.infer<typeof ConversationDetailSchema>

export const SettingsSchema = z.object({
  provider: ProviderKindSchema,
  model: z.string(),
  baseUrl: z.string(),
  /** Name of the environment variable holding the key; the key itself never crosses the bridge. */
  apiKeyEnv: z.string(),
  autonomy: AutonomySchema,
  workspace: z.string(),
  language: LanguageSchema,
  maxIterations: z.number().int().min(1).max(100),
  approvalTimeoutMs: z.number().int().min(1000),
  runtime: RuntimeChoiceSchema,
  /** The sandbox image for the docker runtime. */
  dockerImage: z.string().min(1),
  /** Environment variables passed to commands even though their names look like secrets. */
  allowedEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).max(100)
})
export type Settings = z.infer<typeof SettingsSchema>

const defineCall = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({ input, output })

export const bridgeCalls = {
  'app.info': defineCall(
    z.object({}),
    z.object({ version: z.string(), transport: z.enum(['ipc', 'websocket']), workspace: z.string() })
  ),
  'conversations.list': defineCall(z.object({}), z.array(ConversationSummarySchema)),
  'conversations.create': defineCall(
    z.object({ title: z.string().max(200).optional() }),
    ConversationSummarySchema
  ),
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
  'agent.send': defineCall(
    z.object({ conversationId: z.string(), text: z.string().min(1).max(100_000) }),
    z.object({ runId: z.string() })
  ),
  'agent.cancel': defineCall(z.object({ runId: z.string() }), z.object({ cancelled: z.boolean() })),
  'approvals.pending': defineCall(z.object({}), z.array(PendingApprovalSchema)),
  'approvals.respond': defineCall(
    z.object({
      approvalId: z.string(),
      answer: ApprovalAnswerSchema,
      reason: z.string().max(2000).optional(),
      /** The bindingHash of the question as shown; a mismatch is refused (the call changed). */
      bindingHash: z.string()
    }),
    z.object({ accepted: z.boolean() })
  ),
  'settings.get': defineCall(z.object({}), SettingsSchema),
  'settings.update': defineCall(SettingsSchema.partial(), SettingsSchema)
} as const

export type BridgeCalls = typeof bridgeCalls
export type CallName = keyof BridgeCalls
export type CallInput<K extends CallName> = z.input<BridgeCalls[K]['input']>
export type CallOutput<K extends CallName> = z.output<BridgeCalls[K]['output']>

export type BridgeResult<T> = { ok: true; data: T } | { ok: false; error: AppErrorShape }

/** Events main pushes to every front door. */
export const BridgeEventSchema = z.discriminatedUnion('kind', [
  /** seq increases by one per event within one app process (see conversations.get lastEventSeq). */
  z.object({ kind: z.literal('agent'), event: AgentEventSchema, seq: z.number().int() }),
  z.object({ kind: z.literal('conversations_changed') }),
  z.object({ kind: z.literal('settings_changed'), settings: SettingsSchema })
])
export type BridgeEvent = z.infer<typeof BridgeEventSchema>

/** What the renderer gets from the preload (window.deskclaw) or from the WebSocket client. */
export interface DeskclawApi {
  invoke<K extends CallName>(name: K, input: CallInput<K>): Promise<BridgeResult<CallOutput<K>>>
  onEvent(listener: (event: BridgeEvent) => void): () => void
}

/** Wire frames of the WebSocket transport (the IPC transport carries the same call/result pair). */
export type WireRequest = { id: number; call: string; input: unknown }
export type WireMessage =
  | { id: number; result: BridgeResult<unknown> }
  | { event: BridgeEvent }


export { ApprovalAnswerSchema, ApprovalResolverSchema, PendingApprovalSchema }
export type { PendingApproval } from './agent-events'
