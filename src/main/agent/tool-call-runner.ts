import { errorMessage, newId, type ToolAttachmentRef } from '../../shared'
import { StepApprovals } from '../approvals'
import { stableJson } from '../risk'
import { riskSubjectOf, shownArgs, type AnyTool, type ToolAttachment } from '../tools'
import { RunResults, DEFAULT_READ_CACHE_TTL_MS, isCachedRead, isWriteCall, repeatHandling } from './run-results'
import { ToolCall } from './tool-call'
import { describeCall, runnerText } from './tool-call-texts'
import type { ModelImage, ModelToolCall, RunScope, ToolCallOutcome, ToolCallResult, ToolCallRunnerOptions } from './tool-call-types'

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

  /** Something else wrote the workspace (a sub-agent's call): cached reads are stale, a repeated write runs again. */
  workspaceWritten(): void {
    this.results.written()
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
            else if (definition && isWriteCall(definition)) {
              this.results.writeDone(key, outcome, repeatHandling(definition) === 'flag')
              this.options.onWrite?.()
            }
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
    const repeated = !cached && repeatHandling(definition) === 'flag' && this.results.repeatsWrite(key)
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
