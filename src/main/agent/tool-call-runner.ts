import { errorMessage, newId, type AgentEvent, type Autonomy, type RiskRule, type ToolAttachmentRef } from '../../shared'
import { StepApprovals, type ApprovalAsker, type ConversationGrants } from '../approvals'
import { stableJson, type RiskEngine } from '../risk'
import type { StepCheckpoints } from '../checkpoints'
import { riskSubjectOf, shownArgs, type AnyTool, type OutputLimits, type ToolAttachment, type ToolRegistry } from '../tools'
import { RunResults, DEFAULT_READ_CACHE_TTL_MS, isCachedRead, isRepeatable } from './run-results'
import { ToolCall, type RunScope, type ToolCallOutcome } from './tool-call'
import { describeCall, runnerText } from './tool-call-texts'

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
  /** How long an fs read's result is served again within the run (docs/architecture.md, "Result cache and repeated writes"); 0: never. */
  readCacheTtlMs?: number
}

/**
 * Runs a step's tool calls (docs/architecture.md, "A tool call"): each one through the named phases
 * of ToolCall — validate → assess → approve → re-judge → run → record. Every failure becomes a
 * result the model sees; nothing here throws.
 */
export class ToolCallRunner {
  /** What this run has read and written: reads served again, writes not repeated. */
  private readonly results: RunResults

  constructor(private readonly options: ToolCallRunnerOptions) {
    this.results = new RunResults({ ttlMs: options.readCacheTtlMs ?? DEFAULT_READ_CACHE_TTL_MS, workspace: options.workspace })
  }

  /** The run ended: releases what the result cache holds (its workspace watcher). */
  close(): void {
    this.results.close()
  }

  /**
   * Runs a step's calls in parallel; the same tool with the same arguments runs once. Their
   * approval questions are asked one after another, in call order (StepApprovals). A repeated fs
   * read is served from the run's cache, a repeated write is flagged instead of run (RunResults).
   */
  async runStep(calls: ModelToolCall[], scope: RunScope): Promise<ToolCallResult[]> {
    const keyOf = (call: ModelToolCall): string => `${call.toolName}\u0000${stableJson(call.input)}`
    const outcomes = new Map<string, Promise<ToolCallOutcome>>()
    const toRun: Array<{ call: ModelToolCall; key: string; definition: AnyTool | undefined }> = []
    for (const call of calls) {
      const key = keyOf(call)
      if (outcomes.has(key)) continue
      const definition = this.options.registry.get(call.toolName)
      const served = definition ? this.served(definition, call, key, scope) : undefined
      // Set now so a duplicate in this step is skipped; the calls that run replace it below.
      outcomes.set(key, Promise.resolve(served ?? { forLlm: '', isError: true, images: [] }))
      if (!served) toRun.push({ call, key, definition })
    }
    if (toRun.length > 0) {
      const order: string[] = []
      const byCallId = new Map<string, { call: ModelToolCall; definition: AnyTool | undefined }>()
      const approvals = new StepApprovals(this.options.approvals, order, (callId) => this.sameTargetKey(byCallId.get(callId)))
      const options: ToolCallRunnerOptions = {
        ...this.options,
        approvals,
        emit: (event) => {
          this.options.emit(event)
          approvals.observe(event)
        }
      }
      const toolCalls = toRun.map((entry) => {
        const toolCall = new ToolCall(options, entry.call, scope, (attachments, owner) => this.saveAttachments(attachments, owner))
        order.push(toolCall.callId)
        byCallId.set(toolCall.callId, entry)
        return toolCall
      })
      toRun.forEach(({ key, definition }, index) => {
        const generation = this.results.currentGeneration
        outcomes.set(
          key,
          toolCalls[index]!.perform().then((outcome) => {
            if (definition && isCachedRead(definition)) this.results.readDone(key, outcome, generation)
            else if (definition && isRepeatable(definition)) this.results.writeDone(key, outcome)
            return outcome
          })
        )
      })
    }
    return Promise.all(calls.map(async (call) => ({ call, ...(await outcomes.get(keyOf(call))!) })))
  }

  /** "The same target" for a denial that answers the step's later questions too: tool + risk subject. */
  private sameTargetKey(entry: { call: ModelToolCall; definition: AnyTool | undefined } | undefined): string | undefined {
    if (!entry?.definition) return undefined
    const checked = this.options.registry.checkArgs(entry.call.toolName, entry.call.input)
    const subject = checked.ok ? riskSubjectOf(entry.definition, checked.args) : null
    return subject ? `${entry.call.toolName}\u0000${subject.value}` : undefined
  }

  /**
   * A call answered without running: an fs read from the cache (marked `cached`), or a write that
   * already completed in this run with nothing written since (an error the model and the user see).
   */
  private served(definition: AnyTool, call: ModelToolCall, key: string, scope: RunScope): ToolCallOutcome | undefined {
    const cached = isCachedRead(definition) ? this.results.cachedRead(key) : undefined
    const repeated = !cached && isRepeatable(definition) && this.results.repeatsWrite(key)
    if (!cached && !repeated) return undefined
    const checked = this.options.registry.checkArgs(call.toolName, call.input)
    const base = { runId: scope.runId, conversationId: scope.conversationId, callId: newId('call'), tool: call.toolName }
    const at = Date.now()
    this.options.emit({ type: 'tool_call_started', ...base, at, args: shownArgs(definition, call.input), ...(checked.ok ? describeCall(definition, checked.args) : {}) })
    if (cached) {
      this.options.emit({ type: 'tool_call_completed', ...base, at: Date.now(), status: 'completed', isError: false, output: cached.forLlm, cached: true, durationMs: 0 })
      return cached
    }
    const forLlm = `This exact ${call.toolName} call already completed in this run and nothing was written since, so it did not run again. Use its earlier result; change the arguments if you need something else.`
    this.options.emit({
      type: 'tool_call_completed',
      ...base,
      at: Date.now(),
      status: 'error',
      isError: true,
      output: forLlm,
      display: runnerText('toolRun.repeatedWrite', { tool: call.toolName }),
      durationMs: 0
    })
    return { forLlm, isError: true, images: [] }
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
