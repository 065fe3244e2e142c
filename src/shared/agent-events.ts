/**
 * The one event stream (docs/architecture.md). The loop emits these; the store persists them, the bridge
 * forwards them, `deskclaw run --json` prints them as NDJSON. Zod schemas so every consumer that
 * receives them over a wire can validate; renderer code imports types only.
 */
import { z } from 'zod'
import { StepChangesSchema } from './checkpoints'
import { RiskAssessmentSchema, VerdictSchema } from './risk'

export const ToolCallStatusSchema = z.enum([
  'pending', // parsed, not yet judged
  'awaiting_approval',
  'running',
  'completed',
  'error',
  'denied',
  'interrupted' // the app stopped while it ran
])
export type ToolCallStatus = z.infer<typeof ToolCallStatusSchema>

export const StopReasonSchema = z.enum(['final', 'max_iterations', 'cancelled'])
export type StopReason = z.infer<typeof StopReasonSchema>

/**
 * Text a tool shows the user: a key into the tool's own message table (en and zh-CN, declared in
 * the tool's file) with parameters. The renderer translates keys, never English sentences
 * (docs/architecture.md, "Adding a tool").
 */
export const ToolTextSchema = z.object({
  key: z.string().min(1).max(200),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional()
})
export type ToolText = z.infer<typeof ToolTextSchema>

/**
 * An error as it crosses a wire (AppErrorShape, src/shared/errors.ts): a code, the English message,
 * and when known the message code and parameters the UI translates instead.
 */
export const AppErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  key: z.string().max(200).optional(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional()
})

/** Media types an image may have anywhere it is shown (previews, tool output). */
export const ImageMediaTypeSchema = z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/gif'])
export type ImageMediaType = z.infer<typeof ImageMediaTypeSchema>

/** An image inside an approval preview (a screenshot of what is about to happen): part of what the approval is bound to. */
export const PreviewImageSchema = z.object({
  mediaType: ImageMediaTypeSchema,
  /** Base64; at most ~4 MB of image. */
  data: z.string().max(6_000_000),
  alt: ToolTextSchema.optional()
})
export type PreviewImage = z.infer<typeof PreviewImageSchema>

/** What the approval modal shows: exactly what will run, as labelled fields, and optionally an image. */
export const ApprovalPreviewSchema = z.object({
  title: ToolTextSchema,
  fields: z.array(
    z.object({
      label: ToolTextSchema,
      /** The exact value (what runs); shown as is unless `display` is given. */
      value: z.string(),
      /** Prose to show instead of `value` (translated), e.g. what a runtime name means. */
      display: ToolTextSchema.optional(),
      /** Render as code (commands, file content, paths). */
      code: z.boolean().optional(),
      /** The tool argument this field shows, so risk finding spans (RiskSpan.arg) can be highlighted in it. */
      arg: z.string().optional()
    })
  ),
  image: PreviewImageSchema.optional()
})
export type ApprovalPreview = z.infer<typeof ApprovalPreviewSchema>

/**
 * allow_conversation: the same call (same binding hash) runs without asking for the rest of the
 * conversation; allow_always: saves the assessment's narrow rule. Both also allow this call.
 */
export const ApprovalAnswerSchema = z.enum(['allow_once', 'allow_conversation', 'allow_always', 'deny'])
export type ApprovalAnswer = z.infer<typeof ApprovalAnswerSchema>

/** Who settled an approval: a person, or the broker when nobody answered in time / nobody could. */
export const ApprovalResolverSchema = z.enum(['user', 'timeout', 'no_front_door', 'cancelled', 'policy'])
export type ApprovalResolver = z.infer<typeof ApprovalResolverSchema>

/**
 * The front door a person answered at: the app's window (IPC), a browser (the web host), the
 * terminal (deskclaw run) or a native dialog (the window hidden). Absent: the broker settled it.
 */
export const ApprovalFrontDoorSchema = z.enum(['window', 'browser', 'terminal', 'dialog'])
export type ApprovalFrontDoor = z.infer<typeof ApprovalFrontDoorSchema>

/** An approval's answer as the timeline shows it, live and read back from the store. */
export const ApprovalRecordSchema = z.object({
  answer: ApprovalAnswerSchema,
  by: ApprovalResolverSchema,
  reason: z.string().optional(),
  at: z.number(),
  via: ApprovalFrontDoorSchema.optional()
})
export type ApprovalRecord = z.infer<typeof ApprovalRecordSchema>

/** A run's tokens, summed over its model calls; the breakdowns only when the provider reported them. */
export const UsageSchema = z.object({
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  totalTokens: z.number().optional(),
  /** Of inputTokens, those read from the provider's prompt cache (billed at its cached price). */
  cachedInputTokens: z.number().optional(),
  /** Of outputTokens, those spent on reasoning. */
  reasoningTokens: z.number().optional()
})
export type Usage = z.infer<typeof UsageSchema>

/** Where a run's context window came from (docs/architecture.md, "Context window"). */
export const ContextWindowSourceSchema = z.enum(['setting', 'model-list', 'default'])
export type ContextWindowSource = z.infer<typeof ContextWindowSourceSchema>

/** How full the model's context was at a run's latest request: its input tokens of the window (the chat header's meter). */
export const ContextFillSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  window: z.number().int().positive(),
  source: ContextWindowSourceSchema
})
export type ContextFill = z.infer<typeof ContextFillSchema>

/** What one compaction did (docs/architecture.md, "Compaction"): messages summarised, outputs elided, the prompt before and after. */
export const CompactionSchema = z.object({
  summarised: z.number().int().nonnegative(),
  elided: z.number().int().nonnegative(),
  tokensBefore: z.number().int().nonnegative(),
  tokensAfter: z.number().int().nonnegative(),
  window: z.number().int().positive(),
  /** The provider refused the request as too long, and the run compacted harder and tried again. */
  forced: z.boolean().optional()
})
export type Compaction = z.infer<typeof CompactionSchema>

/** A question waiting for the user: what `approval_requested` carries and `approvals.pending` lists. */
export const PendingApprovalSchema = z.object({
  approvalId: z.string(),
  conversationId: z.string(),
  runId: z.string(),
  callId: z.string(),
  tool: z.string(),
  args: z.unknown(),
  reason: z.string(),
  preview: ApprovalPreviewSchema,
  /** The verdict and findings that made the engine ask; spans point into string args. */
  assessment: RiskAssessmentSchema,
  /** Hash of exactly what was shown (tool, args, preview, workspace); an answer must quote it. */
  bindingHash: z.string(),
  expiresAt: z.number(),
  /**
   * Only "allow once" or "deny" answer it: a message send is approved one at a time, never for the
   * conversation or always (docs/desktop.md, "Sending messages").
   */
  onlyOnce: z.boolean().optional(),
  /** Asked inside a sub-agent's run: the task the parent gave it, so the question says who asks (docs/tools.md, "Sub-agents"). */
  delegatedTask: z.string().optional()
})
export type PendingApproval = z.infer<typeof PendingApprovalSchema>

/**
 * A file a tool produced (a screenshot, a capture), stored apart from the event log and fetched by
 * id (`attachments.get`), so events and snapshots stay small.
 */
export const ToolAttachmentRefSchema = z.object({
  id: z.string(),
  kind: z.enum(['image', 'file']),
  mediaType: z.string(),
  name: z.string().optional(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  bytes: z.number().int()
})
export type ToolAttachmentRef = z.infer<typeof ToolAttachmentRefSchema>

const base = {
  runId: z.string(),
  conversationId: z.string(),
  /** Milliseconds since the epoch. */
  at: z.number()
}

export const AgentEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('run_started'),
    ...base,
    prompt: z.string(),
    model: z.string(),
    /** What the user attached to the prompt (stored by id, like a tool's images). */
    attachments: z.array(ToolAttachmentRefSchema).optional(),
    /**
     * The question the run answers and the run that question follows (docs/architecture.md,
     * "Message versions"); a regenerated answer names the question it asks again. Absent in older logs.
     */
    question: z.object({ id: z.string(), parentRunId: z.string().nullable() }).optional()
  }),
  z.object({ type: z.literal('text_delta'), ...base, messageId: z.string(), delta: z.string() }),
  z.object({
    type: z.literal('tool_call_started'),
    ...base,
    callId: z.string(),
    tool: z.string(),
    args: z.unknown(),
    /** One line saying what the call does, from the tool's own summary(args); absent when the arguments are invalid. */
    summary: z.string().optional(),
    /** The same line as the tool's message code, when it has words the UI translates ("the whole screen"); `summary` is its English. */
    summaryText: ToolTextSchema.optional()
  }),
  z.object({
    type: z.literal('tool_output_delta'),
    ...base,
    callId: z.string(),
    stream: z.enum(['stdout', 'stderr']),
    chunk: z.string()
  }),
  /**
   * A step of a long tool call as it happens (the send-text task: activated, target verified, …):
   * `step` is a message code the front ends translate, `detail` what was read, `attachment` the
   * crop the step checked.
   */
  z.object({
    type: z.literal('tool_progress'),
    ...base,
    callId: z.string(),
    tool: z.string(),
    step: z.string(),
    ok: z.boolean(),
    detail: z.string(),
    /** The detail in the UI's language (a key of the tool's texts), where it has words of its own. */
    detailText: ToolTextSchema.optional(),
    attachment: ToolAttachmentRefSchema.optional()
  }),
  z.object({
    type: z.literal('risk_assessed'),
    ...base,
    callId: z.string(),
    tool: z.string(),
    assessment: RiskAssessmentSchema,
    /** What happens: may differ from assessment.verdict (autonomy level, a conversation grant). */
    action: VerdictSchema,
    /** rejudged: judged again just before the run (docs/risk.md, "At run time") and found changed. */
    source: z.enum(['policy', 'conversation_grant', 'rejudged'])
  }),
  z.object({ type: z.literal('approval_requested'), at: z.number(), ...PendingApprovalSchema.shape }),
  z.object({
    type: z.literal('approval_resolved'),
    ...base,
    approvalId: z.string(),
    callId: z.string(),
    answer: ApprovalAnswerSchema,
    by: ApprovalResolverSchema,
    reason: z.string().optional(),
    via: ApprovalFrontDoorSchema.optional()
  }),
  z.object({
    type: z.literal('tool_call_completed'),
    ...base,
    callId: z.string(),
    tool: z.string(),
    status: ToolCallStatusSchema,
    isError: z.boolean(),
    /** Which runtime ran it (native, bwrap, docker…); absent for tools that run no command. */
    runtime: z.string().optional(),
    /** What the user sees (may be longer than what the model got): what the tool printed, never translated. */
    output: z.string(),
    /**
     * The result in a line the UI translates (docs/architecture.md, "Texts from main"): a key of the
     * tool's own `messages`, or of the UI's dictionaries when it starts with `toolRun.` (the runner's outcomes).
     */
    display: ToolTextSchema.optional(),
    /** Images and files the tool returned (stored by id). */
    attachments: z.array(ToolAttachmentRefSchema).optional(),
    /** What the call changed in the workspace, when it could write and a checkpoint was taken. */
    changes: StepChangesSchema.optional(),
    /** Served from the run's result cache, not run again (docs/architecture.md, "Result cache and repeated writes"). */
    cached: z.boolean().optional(),
    durationMs: z.number()
  }),
  /** After each model request whose input tokens the provider reported. */
  z.object({ type: z.literal('context_usage'), ...base, ...ContextFillSchema.shape }),
  /** The conversation neared the context window and what the model is sent was compacted; the store keeps every original. */
  z.object({ type: z.literal('context_compacted'), ...base, ...CompactionSchema.shape }),
  z.object({
    type: z.literal('run_completed'),
    ...base,
    text: z.string(),
    stopReason: StopReasonSchema,
    iterations: z.number(),
    usage: UsageSchema
  }),
  z.object({
    type: z.literal('run_failed'),
    ...base,
    error: AppErrorSchema,
    /** The tokens of the model calls that finished before the failure, when there were any. */
    usage: UsageSchema.optional()
  }),
  /**
   * One event of a sub-agent's run (docs/tools.md, "Sub-agents"), nested under the parent's
   * `delegate` call: `runId` and `callId` are the parent's, `childRunId` the child's, and `event`
   * the child's own AgentEvent as its loop emitted it (its own runId is `childRunId`). Approvals are
   * not nested: a child's question goes out as any other, with `delegatedTask` set.
   */
  z.object({
    type: z.literal('subagent_event'),
    ...base,
    callId: z.string(),
    childRunId: z.string(),
    /** The task the parent gave the child, as the timeline labels it. */
    task: z.string(),
    event: z.object({ type: z.string(), runId: z.string(), at: z.number() }).passthrough()
  })
])
export type AgentEvent = z.infer<typeof AgentEventSchema>
export type AgentEventType = AgentEvent['type']
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>
