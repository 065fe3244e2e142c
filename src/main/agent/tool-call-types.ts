// The types a tool call's path shares: the runner builds ToolCall with them and the loop reads their
// results, so they live in a file below both (docs/architecture.md, "A tool call").
import type { AgentEvent, Autonomy, RiskRule, ToolAttachmentRef } from '../../shared'
import type { ApprovalAsker, ConversationGrants } from '../approvals'
import type { StepCheckpoints } from '../checkpoints'
import type { RiskEngine } from '../risk'
import type { OutputLimits, ToolOutput, ToolRegistry } from '../tools'
import type { ProvenanceTracker } from '../provenance'

export interface ModelToolCall {
  toolCallId: string
  toolName: string
  input: unknown
}

/** An image a tool returned, as the model receives it (base64). */
export interface ModelImage {
  mediaType: string
  data: string
  /** How the result text refers to it (name, size). */
  label: string
}

export interface ToolCallResult {
  call: ModelToolCall
  forLlm: string
  isError: boolean
  images: ModelImage[]
}

/** Where an attachment is kept, with what it belongs to. */
export interface AttachmentToSave {
  ref: ToolAttachmentRef
  conversationId: string
  runId: string
  callId: string
  data: Uint8Array
}

export interface ToolCallRunnerOptions {
  registry: ToolRegistry
  approvals: ApprovalAsker
  /** Judges every call; a promise because its parser loads asynchronously once per process. */
  risk: Promise<RiskEngine>
  grants: ConversationGrants
  /** Saves the narrow rule of an "allow always" answer. */
  saveAlwaysRule(rule: RiskRule, approvalId: string): void
  autonomy: Autonomy
  workspace: string
  /** Commands run without an OS sandbox: the risk engine is stricter (see RiskContext.unsandboxed). Read after the preview, which waits for the runtime's choice. */
  unsandboxed?(): boolean
  /** The shell that reads command lines where they run (`cmd` on native Windows): the engine judges with its rules. */
  commandShell?(): 'sh' | 'cmd'
  outputLimits: OutputLimits
  /** Stores an image or file a tool returned, before the event that refers to it. */
  saveAttachment(attachment: AttachmentToSave): void
  /** Records the workspace around each call that can change it (docs/checkpoints.md); absent: no checkpoints. */
  checkpoints?: StepCheckpoints
  /** The task of the sub-agent whose calls these are: it labels their approvals (docs/tools.md, "Sub-agents"). */
  delegatedTask?: string
  emit(event: AgentEvent): void
  /** A write or execute call of this runner completed (a sub-agent's runner tells its parent's). */
  onWrite?(): void
  /** How long an fs read's result is served again within the run (docs/architecture.md, "Result cache and repeated writes"); 0: never. */
  readCacheTtlMs?: number
  /**
   * The conversation's provenance (docs/risk.md, "Provenance"): what untrusted content entered and
   * which values came from where. Absent: no provenance findings (output is still marked).
   */
  provenance?: ProvenanceTracker
}

export interface RunScope {
  runId: string
  conversationId: string
  signal: AbortSignal
}

export interface ToolCallOutcome {
  forLlm: string
  isError: boolean
  images: ModelImage[]
}

/** Stores a tool's attachments before the event that names them (the runner's, shared by its calls). */
export type SaveAttachments = (
  attachments: NonNullable<ToolOutput['attachments']>,
  owner: { conversationId: string; runId: string; callId: string }
) => { refs: ToolAttachmentRef[]; images: ModelImage[] }
