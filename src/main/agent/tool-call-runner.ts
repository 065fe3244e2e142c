import {
  errorMessage,
  newId,
  type AgentEvent,
  type ApprovalPreview,
  type ApprovalResolver,
  type Autonomy,
  type RiskAssessment,
  type RiskRule,
  type RunnerTextKey,
  type ToolAttachmentRef,
  type ToolText
} from '../../shared'
import { bindingHash, stableJson, type ApprovalBroker, type ConversationGrants, type RiskEngine, type ToolCallToAssess } from '../risk'
import { riskSubjectOf, truncateForModel, type AnyTool, type OutputLimits, type ToolAttachment, type ToolOutput, type ToolRegistry } from '../tools'
import { WorkspaceEscapeError } from '../workspace'

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
  emit(event: AgentEvent): void
}

interface RunScope {
  runId: string
  conversationId: string
  signal: AbortSignal
}

/**
 * One tool call's path (docs/architecture.md): validate → policy → approval if asked → run → truncate.
 * Every failure becomes a result the model sees; nothing here throws.
 */
export class ToolCallRunner {
  constructor(private readonly options: ToolCallRunnerOptions) {}

  /** Runs a step's calls in parallel; the same tool with the same arguments runs once. */
  async runStep(calls: ModelToolCall[], scope: RunScope): Promise<ToolCallResult[]> {
    const byKey = new Map<string, Promise<Omit<ToolCallResult, 'call'>>>()
    return Promise.all(
      calls.map(async (call) => {
        const key = `${call.toolName}\u0000${stableJson(call.input)}`
        let outcome = byKey.get(key)
        if (!outcome) {
          outcome = this.runOne(call, scope)
          byKey.set(key, outcome)
        }
        return { call, ...(await outcome) }
      })
    )
  }

  private async runOne(call: ModelToolCall, scope: RunScope): Promise<Omit<ToolCallResult, 'call'>> {
    const { registry, emit } = this.options
    const callId = newId('call')
    const started = Date.now()
    // Duration is how long the tool ran, not how long the user took to answer.
    let executionStarted = started
    const base = { runId: scope.runId, conversationId: scope.conversationId }
    // The definition is looked up once: a tool source may remove the tool while the call waits for an answer.
    const definition = registry.get(call.toolName)
    const checked = registry.checkArgs(call.toolName, call.input)
    const summary = definition && checked.ok ? describeCall(definition, checked.args) : undefined
    emit({ type: 'tool_call_started', ...base, at: started, callId, tool: call.toolName, args: call.input, ...(summary ? { summary } : {}) })

    const finish = (status: 'completed' | 'error' | 'denied', output: ToolOutput, earlier: ToolAttachmentRef[] = []) => {
      const forUser = output.forUser ?? output.forLlm
      const hint = definition?.truncationHint ?? 'Ask for a narrower result to see the omitted part.'
      const forLlm = truncateForModel(output.forLlm, this.options.outputLimits, hint).text
      const saved = this.saveAttachments(output.attachments ?? [], { ...base, callId })
      // Images shown with the call's steps stay with it after a reload; only the result's own go to the model.
      saved.refs.unshift(...earlier)
      emit({
        type: 'tool_call_completed',
        ...base,
        at: Date.now(),
        callId,
        tool: call.toolName,
        status,
        isError: output.isError,
        output: forUser,
        ...(output.display ? { display: output.display } : {}),
        ...(output.ranIn ? { runtime: output.ranIn } : {}),
        ...(saved.refs.length > 0 ? { attachments: saved.refs } : {}),
        durationMs: Date.now() - executionStarted
      })
      return { forLlm, isError: output.isError, images: saved.images }
    }

    if (!checked.ok || !definition) {
      const shown = runnerText(definition ? 'toolRun.invalidArgs' : 'toolRun.unknownTool', { tool: call.toolName })
      return finish('error', { forLlm: checked.ok ? `Unknown tool ${call.toolName}.` : checked.error, display: shown, isError: true })
    }

    let preview: ApprovalPreview
    let subject: ToolCallToAssess['subject']
    try {
      preview = await definition.preview(checked.args, { workspace: this.options.workspace, conversationId: scope.conversationId })
      subject = riskSubjectOf(definition, checked.args)
    } catch (error) {
      // A preview that cannot be built (a path outside the workspace) is a refused call, not a question.
      const shown = error instanceof WorkspaceEscapeError ? runnerText('toolRun.outsideWorkspace', { path: error.requested }) : runnerText('toolRun.refused')
      return finish('error', { forLlm: errorMessage(error), display: shown, isError: true })
    }

    // What runs is a private copy: nothing can change the arguments between approval and execution.
    const args = structuredClone(checked.args)
    const { workspace } = this.options
    const hash = bindingHash({ tool: call.toolName, args, workspace, preview })
    let assessment: RiskAssessment
    try {
      const engine = await this.options.risk
      assessment = engine.assess(
        { tool: call.toolName, category: definition.category, access: definition.access, subject, asksFirst: definition.asksFirst?.() ?? false },
        { workspace, autonomy: this.options.autonomy, unsandboxed: this.options.unsandboxed?.() ?? false, shell: this.options.commandShell?.() ?? 'sh' }
      )
    } catch (error) {
      // The engine failing must never mean "run": ask instead.
      assessment = {
        verdict: 'ask',
        findings: [{ rule: 'risk.engine-error', message: `The risk engine failed: ${errorMessage(error)}`, verdict: 'ask', span: null }],
        alwaysRule: null
      }
    }
    const grant = grantKey(definition, args, hash)
    // A tool that confirms during its run asks every time: no grant answers for it.
    const confirmsLater = definition.confirmsDuringRun === true
    const granted = !confirmsLater && assessment.verdict === 'ask' && this.options.grants.has(scope.conversationId, grant)
    const action = granted ? 'allow' : assessment.verdict
    emit({
      type: 'risk_assessed',
      ...base,
      at: Date.now(),
      callId,
      tool: call.toolName,
      assessment,
      action,
      source: granted ? 'conversation_grant' : 'policy'
    })
    if (action === 'deny') {
      return finish('denied', { forLlm: `Not allowed: ${explain(assessment, 'deny')} It did not run.`, display: policyDenial(assessment), isError: true })
    }
    if (action === 'ask' && !confirmsLater) {
      const answer = await this.options.approvals.request({
        ...base,
        callId,
        tool: call.toolName,
        args,
        reason: explain(assessment, 'ask'),
        preview,
        assessment,
        bindingHash: hash,
        signal: scope.signal
      })
      if (answer.answer === 'deny') {
        const why = answer.reason ? ` Reason: ${answer.reason}` : ''
        const text =
          answer.by === 'user'
            ? `The user denied this ${call.toolName} call.${why} It did not run. Do not repeat it unchanged.`
            : `This ${call.toolName} call was not approved (${answer.by}).${why} It did not run.`
        return finish('denied', { forLlm: text, display: answerDenial(answer.by, answer.reason), isError: true })
      }
      if (answer.answer === 'allow_conversation') this.options.grants.grant(scope.conversationId, grant)
      if (answer.answer === 'allow_always' && assessment.alwaysRule) this.options.saveAlwaysRule(assessment.alwaysRule, answer.approvalId)
    }
    // The binding is checked again at the last moment: what runs is what was judged and shown.
    if (bindingHash({ tool: call.toolName, args, workspace, preview }) !== hash) {
      return finish('denied', {
        forLlm: 'The call changed after it was approved, so it did not run.',
        display: runnerText('toolRun.changedAfterApproval'),
        isError: true
      })
    }

    executionStarted = Date.now()
    const progressRefs: ToolAttachmentRef[] = []
    const output = await registry.execute(call.toolName, args, {
      workspace: this.options.workspace,
      conversationId: scope.conversationId,
      runId: scope.runId,
      callId,
      signal: scope.signal,
      onOutput: (stream, chunk) =>
        emit({ type: 'tool_output_delta', ...base, at: Date.now(), callId, stream, chunk }),
      onProgress: (progress) => {
        const saved = progress.image ? this.saveAttachments([progress.image], { ...base, callId }).refs[0] : undefined
        if (saved) progressRefs.push(saved)
        emit({
          type: 'tool_progress',
          ...base,
          at: Date.now(),
          callId,
          tool: call.toolName,
          step: progress.step,
          ok: progress.ok,
          detail: progress.detail,
          ...(saved ? { attachment: saved } : {})
        })
      },
      confirm: async (shown) => {
        // Supervised mode always asks for these, whatever rule allowed the call; full autonomy asks only when a rule says so.
        const asks = action === 'ask' || this.options.autonomy === 'supervised'
        if (!confirmsLater || !asks) return { allowed: true }
        const asked = await this.options.approvals.request({
          ...base,
          callId,
          tool: call.toolName,
          args,
          reason: explain(assessment, 'ask'),
          preview: shown,
          assessment: { ...assessment, alwaysRule: null },
          bindingHash: bindingHash({ tool: call.toolName, args, workspace, preview: shown }),
          signal: scope.signal,
          onlyOnce: true
        })
        if (asked.answer !== 'deny') return { allowed: true }
        const why = asked.reason ?? (asked.by === 'user' ? 'the user denied it' : `not approved (${asked.by})`)
        return { allowed: false, reason: asked.by === 'user' && asked.reason ? `the user denied it: ${asked.reason}` : why }
      }
    })
    return finish(output.isError ? 'error' : 'completed', output, progressRefs)
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

/**
 * What a conversation grant is kept under: the exact call (its binding hash), or the scope the tool
 * declares (one tool, or one serial port across the serial tools).
 */
function grantKey(definition: AnyTool, args: Record<string, unknown>, hash: string): string {
  if (!definition.grantScope) return hash
  try {
    return `scope:${definition.grantScope(args)}`
  } catch {
    return hash
  }
}

/** The tool's own one-line summary; a summary that throws is no reason to fail the call. */
function describeCall(definition: AnyTool, args: Record<string, unknown>): string | undefined {
  try {
    return definition.summary(args) || undefined
  } catch {
    return undefined
  }
}

/** One line for the model and the approval question: the findings that decided the verdict. */
function explain(assessment: RiskAssessment, verdict: 'ask' | 'deny'): string {
  const decisive = assessment.findings.filter((f) => f.verdict === verdict)
  const messages = [...new Set((decisive.length > 0 ? decisive : assessment.findings).map((f) => f.message))]
  return messages.slice(0, 3).join(' ') || (verdict === 'deny' ? 'Denied by policy.' : 'Needs your approval.')
}

/** A line of the runner's own (docs/architecture.md, "Texts from main"): translated by the UI, not a tool. */
function runnerText(key: RunnerTextKey, params?: Record<string, string | number>): ToolText {
  return params ? { key, params } : { key }
}

/** The decisive finding of a denial: its rule lets the UI translate it; its message is the English fallback. */
function policyDenial(assessment: RiskAssessment): ToolText {
  const decisive = assessment.findings.find((f) => f.verdict === 'deny') ?? assessment.findings[0]
  return decisive ? runnerText('toolRun.deniedByPolicy', { rule: decisive.rule, reason: decisive.message }) : runnerText('toolRun.deniedByPolicy', { rule: '', reason: '' })
}

/** Who said no, and what they wrote (the user's own words stay as they are). */
function answerDenial(by: ApprovalResolver, reason: string | undefined): ToolText {
  if (by === 'user') return reason ? runnerText('toolRun.deniedByUserReason', { reason }) : runnerText('toolRun.deniedByUser')
  return runnerText(`toolRun.notApproved.${by}`)
}
