import { errorMessage, newId, type AgentEvent, type Autonomy, type RiskRule, type ToolAttachmentRef } from '../../shared'
import { stableJson, type ApprovalBroker, type ConversationGrants, type RiskEngine } from '../risk'
import type { StepCheckpoints } from '../checkpoints'
import type { OutputLimits, ToolAttachment, ToolRegistry } from '../tools'
import { ToolCall, type RunScope, type ToolCallOutcome } from './tool-call'

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
  approvals: ApprovalBroker
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
}

/**
 * Runs a step's tool calls (docs/architecture.md, "A tool call"): each one through the named phases
 * of ToolCall — validate → assess → approve → re-judge → run → record. Every failure becomes a
 * result the model sees; nothing here throws.
 */
export class ToolCallRunner {
  constructor(private readonly options: ToolCallRunnerOptions) {}

  /** Runs a step's calls in parallel; the same tool with the same arguments runs once. */
  async runStep(calls: ModelToolCall[], scope: RunScope): Promise<ToolCallResult[]> {
    const byKey = new Map<string, Promise<ToolCallOutcome>>()
    return Promise.all(
      calls.map(async (call) => {
        const key = `${call.toolName}\u0000${stableJson(call.input)}`
        let outcome = byKey.get(key)
        if (!outcome) {
          outcome = new ToolCall(this.options, call, scope, (attachments, owner) => this.saveAttachments(attachments, owner)).perform()
          byKey.set(key, outcome)
        }
        return { call, ...(await outcome) }
      })
    )
  }

  /** Stores each attachment before the event that names it; images also go to the model. A failure to store is said, not thrown. */
  private saveAttachments(
    attachments: ToolAttachment[],
    owner: { conversationId: string; runId: string; callId: string }
  ): { refs: ToolAttachmentRef[]; images: ModelImage[] } {
    const refs: ToolAttachmentRef[] = []
    const images: ModelImage[] = []
    for (const attachment of attachments) {
      const ref: ToolAttachmentRef = {
        id: newId('att'),
        kind: attachment.kind,
        mediaType: attachment.mediaType,
        bytes: attachment.data.byteLength,
        ...(attachment.name ? { name: attachment.name } : {}),
        ...(attachment.kind === 'image' && attachment.width ? { width: attachment.width } : {}),
        ...(attachment.kind === 'image' && attachment.height ? { height: attachment.height } : {})
      }
      try {
        this.options.saveAttachment({ ref, ...owner, data: attachment.data })
      } catch (error) {
        console.warn(`[deskclaw] could not store an attachment of ${owner.callId}: ${errorMessage(error)}`)
        continue
      }
      refs.push(ref)
      if (attachment.kind === 'image') {
        const size = ref.width && ref.height ? `, ${ref.width}×${ref.height}` : ''
        images.push({ mediaType: attachment.mediaType, data: Buffer.from(attachment.data).toString('base64'), label: `${ref.name ?? 'image'} (${attachment.mediaType}${size})` })
      }
    }
    return { refs, images }
  }
}
