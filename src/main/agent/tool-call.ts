import {
  errorMessage,
  isStricterOrEqual,
  newId,
  strictest,
  type ApprovalPreview,
  type RiskAssessment,
  type StepChanges,
  type ToolAttachmentRef,
  type Verdict
} from '../../shared'
import {
  bindingHash,
  describeTargetChanges,
  identifyTargets,
  targetPathsHash,
  type TargetIdentity,
  type ToolCallToAssess
} from '../risk'
import { markContent, provenanceFindings } from '../provenance'
import { riskSubjectOf, shownArgs, ToolRefusal, truncateForModel, type AnyTool, type ToolOutput } from '../tools'
import { WorkspaceEscapeError } from '../workspace'
import { answerDenial, answerDenialForModel, describeCall, explain, policyDenial, runnerText } from './tool-call-texts'
import type { ModelToolCall, RunScope, SaveAttachments, ToolCallOutcome, ToolCallRunnerOptions } from './tool-call-types'

/** How often a call whose files keep changing under an approval is asked again before it is refused. */
const MAX_QUESTIONS_AFTER_CHANGE = 3

/** A call that passed validation: its tool, arguments (a private copy) and what the user is shown. */
interface Prepared {
  definition: AnyTool
  args: Record<string, unknown>
  /** The arguments as stored and shown: secrets replaced (docs/tools.md, "Secrets in arguments"). */
  shown: Record<string, unknown>
  preview: ApprovalPreview
  subject: ToolCallToAssess['subject']
}

/** One judgement of the call, with the file-system objects it rested on at that moment. */
interface Judgement {
  assessment: RiskAssessment
  targets: TargetIdentity[]
  /** What shown + objects hash to: an approval is bound to it. */
  binding: string
  action: Verdict
  source: 'policy' | 'conversation_grant' | 'rejudged'
}

type Refusal = { ok: false; status: 'error' | 'denied'; output: ToolOutput }

/**
 * Calls whose effects on the workspace are recorded in checkpoints (docs/checkpoints.md): those
 * that can write and whose domain reaches files. A click or a sent message cannot be undone by
 * restoring files, so they are not recorded.
 */
const CHECKPOINTED_CATEGORIES: ReadonlySet<string> = new Set(['fs', 'shell', 'mcp'])
/** Provenance findings that no conversation grant answers. */
const CARRIES_DATA: ReadonlySet<string> = new Set(['provenance.carries-workspace', 'provenance.carries-secret'])
/** How the call came to be allowed: by policy (nobody asked), a grant, or a person's answer. */
type Consent = { ok: true; by: 'policy' | 'grant' | 'answer' | 'during-run' }
type Rejudged = { next: 'run' } | { next: 'ask-again'; judgement: Judgement } | { next: 'refuse'; refusal: Refusal }

/**
 * One tool call's path as named phases (docs/architecture.md, "A tool call"):
 * validate → assess → approve → re-judge → run → record. Each phase either hands on to the next or
 * ends the call with a result the model sees; nothing here throws.
 */
export class ToolCall {
  readonly callId = newId('call')
  private readonly started = Date.now()
  /** Duration is how long the tool ran, not how long the user took to answer. */
  private executionStarted = this.started
  private readonly progressRefs: ToolAttachmentRef[] = []
  /** Looked up once: a tool source may remove the tool while the call waits for an answer. */
  private definition: AnyTool | undefined
  /** What the call changed in the workspace, when it was recorded. */
  private changes: StepChanges | undefined

  constructor(
    private readonly options: ToolCallRunnerOptions,
    private readonly call: ModelToolCall,
    private readonly scope: RunScope,
    private readonly saveAttachments: SaveAttachments
  ) {}

  private get base() {
    return { runId: this.scope.runId, conversationId: this.scope.conversationId }
  }

  async perform(): Promise<ToolCallOutcome> {
    const prepared = await this.validate()
    if (!prepared.ok) return this.record(prepared.status, prepared.output)
    let judgement = await this.assess(prepared)
    let consent = await this.approve(prepared, judgement)
    for (let asked = 0; consent.ok; ) {
      const rejudged = await this.rejudge(prepared, judgement, consent)
      if (rejudged.next === 'run') return this.record(...(await this.run(prepared, judgement)))
      if (rejudged.next === 'refuse') return this.record(rejudged.refusal.status, rejudged.refusal.output)
      if (++asked > MAX_QUESTIONS_AFTER_CHANGE) break
      judgement = rejudged.judgement
      consent = await this.approve(prepared, judgement)
    }
    if (!consent.ok) return this.record(consent.status, consent.output)
    return this.record('denied', {
      forLlm: 'The files this call names kept changing after it was approved, so it did not run.',
      display: runnerText('toolRun.changedAfterApproval'),
      isError: true
    })
  }

  /** Phase 1: the tool exists, the arguments fit its schema, and a preview and subject can be built. */
  private async validate(): Promise<(Prepared & { ok: true }) | Refusal> {
    const { registry, emit } = this.options
    const definition = (this.definition = registry.get(this.call.toolName))
    const checked = registry.checkArgs(this.call.toolName, this.call.input)
    const summary = definition && checked.ok ? describeCall(definition, checked.args) : {}
    emit({ type: 'tool_call_started', ...this.base, at: this.started, callId: this.callId, tool: this.call.toolName, args: shownArgs(definition, this.call.input), ...summary })
    if (!checked.ok || !definition) {
      const shown = runnerText(definition ? 'toolRun.invalidArgs' : 'toolRun.unknownTool', { tool: this.call.toolName })
      return { ok: false, status: 'error', output: { forLlm: checked.ok ? `Unknown tool ${this.call.toolName}.` : checked.error, display: shown, isError: true } }
    }
    try {
      const preview = await definition.preview(checked.args, { workspace: this.options.workspace, conversationId: this.scope.conversationId })
      const subject = riskSubjectOf(definition, checked.args)
      // What runs is a private copy: nothing can change the arguments between approval and execution.
      const args = structuredClone(checked.args)
      return { ok: true, definition, args, shown: shownArgs(definition, args) as Record<string, unknown>, preview, subject }
    } catch (error) {
      // A preview that cannot be built (a path outside the workspace) is a refused call, not a question.
      const shown =
        error instanceof WorkspaceEscapeError
          ? runnerText('toolRun.outsideWorkspace', { path: error.requested })
          : error instanceof ToolRefusal
            ? error.display
            : runnerText('toolRun.refused')
      return { ok: false, status: 'error', output: { forLlm: errorMessage(error), display: shown, isError: true } }
    }
  }

  /** Phase 2: the risk engine's verdict on the call as the file system is now; a grant may answer an "ask". */
  private async assess(prepared: Prepared): Promise<Judgement> {
    const judged = await this.judgeNow(prepared)
    const grant = this.grantKey(prepared, judged.targets)
    // A tool that confirms during its run asks every time: no grant answers for it.
    // A grant for a site or a tool never covers a call that carries workspace or secret data (docs/risk.md, "Provenance").
    const carries = judged.assessment.findings.some((finding) => CARRIES_DATA.has(finding.rule) && finding.verdict !== 'allow')
    const granted = prepared.definition.confirmsDuringRun !== true && !carries && judged.assessment.verdict === 'ask' && this.options.grants.has(this.scope.conversationId, grant)
    const judgement: Judgement = { ...judged, action: granted ? 'allow' : judged.assessment.verdict, source: granted ? 'conversation_grant' : 'policy' }
    this.emitAssessed(judgement)
    return judgement
  }

  /** Phase 3: a deny ends the call; an "ask" waits for a person (or is left to the tool's own mid-run question). */
  private async approve(prepared: Prepared, judgement: Judgement): Promise<Consent | Refusal> {
    const { assessment, action } = judgement
    if (action === 'deny') {
      return { ok: false, status: 'denied', output: { forLlm: `Not allowed: ${explain(assessment, 'deny')} It did not run.`, display: policyDenial(assessment), isError: true } }
    }
    if (action === 'allow') return { ok: true, by: judgement.source === 'conversation_grant' ? 'grant' : 'policy' }
    if (prepared.definition.confirmsDuringRun === true) return { ok: true, by: 'during-run' }
    const answer = await this.options.approvals.request({
      ...this.base,
      callId: this.callId,
      tool: this.call.toolName,
      args: prepared.shown,
      reason: explain(assessment, 'ask'),
      preview: prepared.preview,
      assessment,
      bindingHash: judgement.binding,
      signal: this.scope.signal,
      ...(this.options.delegatedTask ? { delegatedTask: this.options.delegatedTask } : {})
    })
    if (answer.answer === 'deny') {
      return { ok: false, status: 'denied', output: { forLlm: answerDenialForModel(this.call.toolName, answer.by, answer.reason), display: answerDenial(answer.by, answer.reason), isError: true } }
    }
    if (answer.answer === 'allow_conversation') this.options.grants.grant(this.scope.conversationId, this.grantKey(prepared, judgement.targets))
    if (answer.answer === 'allow_always' && assessment.alwaysRule) this.options.saveAlwaysRule(assessment.alwaysRule, answer.approvalId)
    return { ok: true, by: 'answer' }
  }

  /**
   * Phase 4: judged again with the file system as it is immediately before the run. A consent was
   * given for the objects judged then: if they were swapped (a folder replaced by a symlink, a file by
   * a hard link) the consent is void and the question is asked again with what changed; a verdict
   * that became stricter is acted on as it now stands.
   */
  private async rejudge(prepared: Prepared, judgement: Judgement, consent: Consent): Promise<Rejudged> {
    const now = await this.judgeNow(prepared)
    const objectsChanged = now.binding !== judgement.binding
    const verdictStricter = !isStricterOrEqual(judgement.assessment.verdict, now.assessment.verdict)
    const consentGiven = consent.by === 'answer' || consent.by === 'grant'
    if (now.assessment.verdict === 'deny') {
      const denied: Judgement = { ...now, action: 'deny', source: 'rejudged' }
      if (objectsChanged || verdictStricter) this.emitAssessed(denied)
      return { next: 'refuse', refusal: { ok: false, status: 'denied', output: { forLlm: `Not allowed: ${explain(now.assessment, 'deny')} It did not run.`, display: policyDenial(now.assessment), isError: true } } }
    }
    if (!verdictStricter && !(objectsChanged && consentGiven)) return { next: 'run' }
    if (!objectsChanged || !consentGiven) {
      // Nobody was asked about the old state: the new judgement stands on its own.
      const fresh: Judgement = { ...now, action: now.assessment.verdict, source: 'rejudged' }
      this.emitAssessed(fresh)
      return fresh.action === 'allow' ? { next: 'run' } : { next: 'ask-again', judgement: fresh }
    }
    const changes = describeTargetChanges(judgement.targets, now.targets, { workspace: this.options.workspace, home: (await this.options.risk).homeFolder })
    const message = `The files this call names changed after it was judged. ${changes.join(' ') || 'Its targets are different objects now.'} Asked again.`
    const assessment: RiskAssessment = {
      ...now.assessment,
      verdict: 'ask',
      findings: [{ rule: 'run.changed-since-asked', message, verdict: 'ask', span: null }, ...now.assessment.findings],
      // A question about a moved target is never saved as a rule.
      alwaysRule: null
    }
    const again: Judgement = { ...now, assessment, action: 'ask', source: 'rejudged' }
    this.emitAssessed(again)
    return { next: 'ask-again', judgement: again }
  }

  /** Phase 5: the tool itself, with hidden context, live output, progress and its own mid-run question. */
  private async run(prepared: Prepared, judgement: Judgement): Promise<['completed' | 'error', ToolOutput]> {
    const { registry, emit, workspace } = this.options
    const { assessment, action } = judgement
    const confirmsLater = prepared.definition.confirmsDuringRun === true
    const checkpoints = prepared.definition.access !== 'read' && CHECKPOINTED_CATEGORIES.has(prepared.definition.category) ? this.options.checkpoints : undefined
    const before = await checkpoints?.before(this.scope.conversationId)
    this.executionStarted = Date.now()
    const output = await registry.execute(this.call.toolName, prepared.args, {
      workspace,
      conversationId: this.scope.conversationId,
      runId: this.scope.runId,
      callId: this.callId,
      signal: this.scope.signal,
      onOutput: (stream, chunk) => emit({ type: 'tool_output_delta', ...this.base, at: Date.now(), callId: this.callId, stream, chunk }),
      onProgress: (progress) => {
        const saved = progress.image ? this.saveAttachments([progress.image], { ...this.base, callId: this.callId }).refs[0] : undefined
        if (saved) this.progressRefs.push(saved)
        emit({
          type: 'tool_progress',
          ...this.base,
          at: Date.now(),
          callId: this.callId,
          tool: this.call.toolName,
          step: progress.step,
          ok: progress.ok,
          detail: progress.detail,
          ...(progress.detailText ? { detailText: progress.detailText } : {}),
          ...(saved ? { attachment: saved } : {})
        })
      },
      confirm: async (shown) => {
        // Supervised mode always asks for these, whatever rule allowed the call; full autonomy asks only when a rule says so.
        const asks = action === 'ask' || this.options.autonomy === 'supervised'
        if (!confirmsLater || !asks) return { allowed: true }
        const asked = await this.options.approvals.request({
          ...this.base,
          callId: this.callId,
          tool: this.call.toolName,
          args: prepared.shown,
          reason: explain(assessment, 'ask'),
          preview: shown,
          assessment: { ...assessment, alwaysRule: null },
          bindingHash: bindingHash({ tool: this.call.toolName, args: prepared.shown, workspace, preview: shown }),
          signal: this.scope.signal,
          onlyOnce: true,
          ...(this.options.delegatedTask ? { delegatedTask: this.options.delegatedTask } : {})
        })
        if (asked.answer !== 'deny') return { allowed: true }
        const why = asked.reason ?? (asked.by === 'user' ? 'the user denied it' : `not approved (${asked.by})`)
        return { allowed: false, reason: asked.by === 'user' && asked.reason ? `the user denied it: ${asked.reason}` : why }
      }
    })
    const step = before !== undefined ? await checkpoints?.after(this.scope.conversationId, before) : undefined
    if (step && step.changes.files > 0) {
      this.changes = step.changes
      return [output.isError ? 'error' : 'completed', { ...output, forUser: output.forUser ?? output.forLlm, forLlm: `${output.forLlm}\n\n${step.forModel}` }]
    }
    return [output.isError ? 'error' : 'completed', output]
  }

  /** Phase 6: the result for the timeline, the store and the model (truncated, attachments kept). */
  private record(status: 'completed' | 'error' | 'denied', output: ToolOutput): ToolCallOutcome {
    const definition = this.definition
    const forUser = output.forUser ?? output.forLlm
    const hint = definition?.truncationHint ?? 'Ask for a narrower result to see the omitted part.'
    const shown = truncateForModel(output.forLlm, this.options.outputLimits, hint).text
    const forLlm = status === 'denied' || !definition ? shown : this.provenanceOf(definition, shown)
    const saved = this.saveAttachments(output.attachments ?? [], { ...this.base, callId: this.callId })
    // Images shown with the call's steps stay with it after a reload; only the result's own go to the model.
    saved.refs.unshift(...this.progressRefs)
    this.options.emit({
      type: 'tool_call_completed',
      ...this.base,
      at: Date.now(),
      callId: this.callId,
      tool: this.call.toolName,
      status,
      isError: output.isError,
      output: forUser,
      ...(output.display ? { display: output.display } : {}),
      ...(output.ranIn ? { runtime: output.ranIn } : {}),
      ...(saved.refs.length > 0 ? { attachments: saved.refs } : {}),
      ...(this.changes ? { changes: this.changes } : {}),
      durationMs: Date.now() - this.executionStarted
    })
    return { forLlm, isError: output.isError, images: saved.images }
  }

  /** The engine's judgement now, the identities of the objects it named, and the binding of both to what is shown. */
  private async judgeNow(prepared: Prepared): Promise<Omit<Judgement, 'action' | 'source'>> {
    const { workspace } = this.options
    let judged: { assessment: RiskAssessment; targets: string[] }
    try {
      const engine = await this.options.risk
      judged = engine.judge(
        { tool: this.call.toolName, category: prepared.definition.category, access: prepared.definition.access, subject: prepared.subject, asksFirst: prepared.definition.asksFirst?.() ?? false, asksAlways: prepared.definition.asksAlways ?? false, unsandboxed: prepared.definition.runsUnsandboxed?.(prepared.args) ?? false },
        { workspace, autonomy: this.options.autonomy, unsandboxed: this.options.unsandboxed?.() ?? false, shell: this.options.commandShell?.() ?? 'sh' }
      )
    } catch (error) {
      // The engine failing must never mean "run": ask instead.
      judged = {
        assessment: {
          verdict: 'ask',
          findings: [{ rule: 'risk.engine-error', message: `The risk engine failed: ${errorMessage(error)}`, verdict: 'ask', span: null }],
          alwaysRule: null
        },
        targets: []
      }
    }
    judged = { ...judged, assessment: this.withProvenance(prepared, judged.assessment) }
    const targets = identifyTargets(judged.targets)
    const binding = bindingHash({ tool: this.call.toolName, args: prepared.shown, workspace, preview: prepared.preview, targets })
    return { assessment: judged.assessment, targets, binding }
  }

  /**
   * What a conversation grant is kept under: the exact call on the same files (what is shown and the
   * targets' canonical paths — not their inodes, which an ordinary edit changes), or the scope the
   * tool declares (one tool, or one serial port across the serial tools).
   */
  private grantKey(prepared: Prepared, targets: readonly TargetIdentity[]): string {
    const exact = () => `${bindingHash({ tool: this.call.toolName, args: prepared.shown, workspace: this.options.workspace, preview: prepared.preview })}:${targetPathsHash(targets)}`
    if (!prepared.definition.grantScope) return exact()
    try {
      return `scope:${prepared.definition.grantScope(prepared.args)}`
    } catch {
      return exact()
    }
  }

  /**
   * The engine's assessment with the call's provenance findings (docs/risk.md, "Provenance"): what
   * entered the context since the user's last message and what data the arguments carry, against
   * what the call does with data. No rule answers these: they are judged after the rules.
   */
  private withProvenance(prepared: Prepared, assessment: RiskAssessment): RiskAssessment {
    const tracker = this.options.provenance
    if (!tracker) return assessment
    let findings
    try {
      const sink = prepared.definition.sink.of(prepared.args)
      findings = provenanceFindings({
        sink,
        access: prepared.definition.access,
        autonomy: this.options.autonomy,
        entered: tracker.enteredSinceUser(),
        carried: sink.kind === 'none' ? [] : tracker.carried(prepared.args),
        userNamed: (destination) => tracker.isUserNamed(destination),
        // A send the engine allowed before provenance did so by the user's standing choice: an MCP tool
        // in autoApprove (or whose read-only hint they trust), a site on the allowed list, a rule.
        allowedByUserChoice: sink.kind === 'send' && assessment.verdict === 'allow' && this.options.autonomy !== 'full'
      })
    } catch (error) {
      findings = [{ rule: 'provenance.error', message: `Provenance could not be judged: ${errorMessage(error)}`, verdict: 'ask' as const, span: null }]
    }
    if (findings.length === 0) return assessment
    const verdict = strictest([assessment.verdict, ...findings.map((finding) => finding.verdict)])
    // "Always allow" would not stop these questions: it is not offered for them.
    const asks = findings.some((finding) => finding.verdict !== 'allow')
    return { ...assessment, verdict, findings: [...findings, ...assessment.findings], alwaysRule: asks ? null : assessment.alwaysRule }
  }

  /** The output as the model gets it (marked when untrusted), recorded in the conversation's provenance. */
  private provenanceOf(definition: AnyTool, forLlm: string): string {
    const checked = this.options.registry.checkArgs(this.call.toolName, this.call.input)
    const subject = checked.ok ? riskSubjectOf(definition, checked.args) : null
    const name = subject?.value ?? this.call.toolName
    this.options.provenance?.toolOutput(definition.source, name, forLlm)
    return markContent(definition.source, name, forLlm)
  }

  private emitAssessed(judgement: Judgement): void {
    this.options.emit({
      type: 'risk_assessed',
      ...this.base,
      at: Date.now(),
      callId: this.callId,
      tool: this.call.toolName,
      assessment: judgement.assessment,
      action: judgement.action,
      source: judgement.source
    })
  }
}
