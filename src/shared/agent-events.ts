/**
 * The one event stream (DESIGN §1). The loop emits these; the store persists them, the bridge
 * forwards them, `deskclaw run --json` prints them as NDJSON. Zod schemas so every consumer that
 * receives them over a wire can validate; renderer code imports types only.
 */
import { z } from 'zod'
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

/** What the approval modal shows: exactly what will run, as labelled fields. */
export const ApprovalPreviewSchema = z.object({
  title: z.string(),
  fields: z.array(
    z.object({
      label: z.string(),
      value: z.string(),
      /** Render as code (commands, file content, paths). */
      code: z.boolean().optional(),
      /** The tool argument this field shows, so risk finding spans (RiskSpan.arg) can be highlighted in it. */
      arg: z.string().optional()
    })
  )
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

export const UsageSchema = z.object({
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  totalTokens: z.number().optional()
})
export type Usage = z.infer<typeof UsageSchema>

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
  expiresAt: z.number()
})
export type PendingApproval = z.infer<typeof PendingApprovalSchema>

const base = {
  runId: z.string(),
  conversationId: z.string(),
  /** Milliseconds since the epoch. */
  at: z.number()
}

export const AgentEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run_started'), ...base, prompt: z.string(), model: z.string() }),
  z.object({ type: z.literal('text_delta'), ...base, messageId: z.string(), delta: z.string() }),
  z.object({
    type: z.literal('tool_call_started'),
    ...base,
    callId: z.string(),
    tool: z.string(),
    args: z.unknown()
  }),
  z.object({
    type: z.literal('tool_output_delta'),
    ...base,
    callId: z.string(),
    stream: z.enum(['stdout', 'stderr']),
    chunk: z.string()
  }),
  z.object({
    type: z.literal('risk_assessed'),
    ...base,
    callId: z.string(),
    tool: z.string(),
    assessment: RiskAssessmentSchema,
    /** What happens: may differ from assessment.verdict (autonomy level, a conversation grant). */
    action: VerdictSchema,
    source: z.enum(['policy', 'conversation_grant'])
  }),
  z.object({ type: z.literal('approval_requested'), at: z.number(), ...PendingApprovalSchema.shape }),
  z.object({
    type: z.literal('approval_resolved'),
    ...base,
    approvalId: z.string(),
    callId: z.string(),
    answer: ApprovalAnswerSchema,
    by: ApprovalResolverSchema,
    reason: z.string().optional()
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
    /** What the user sees (may be longer than what the model got). */
    output: z.string(),
    durationMs: z.number()
  }),
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
    error: z.object({ code: z.string(), message: z.string() })
  })
])
export type AgentEvent = z.infer<typeof AgentEventSchema>
export type AgentEventType = AgentEvent['type']
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>
