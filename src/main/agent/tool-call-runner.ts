import { errorMessage, newId, type AgentEvent, type Autonomy, type RiskAssessment, type RiskRule } from '../../shared'
import type { Runtime } from '../runtime'
import { bindingHash, stableJson, type ApprovalBroker, type ConversationGrants, type RiskEngine } from '../risk'
import { truncateForModel, type OutputLimits, type ToolOutput, type ToolRegistry } from '../tools'

export interface ModelToolCall {
  toolCallId: string
  toolName: string
  input: unknown
}

export interface ToolCallResult {
  call: ModelToolCall
  forLlm: string
  isError: boolean
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
  runtime: Runtime
  /** The runtime fell back to no OS sandbox: the risk engine is stricter (see RiskContext.unsandboxed). Read after runtime.ready(). */
  unsandboxed?(): boolean
  outputLimits: OutputLimits
  emit(event: AgentEvent): void
}

interface RunScope {
  runId: string
  conversationId: string
  signal: AbortSignal
}

/**
 * One tool call's path (DESIGN §2): validate → policy → approval if asked → run → truncate.
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
    emit({ type: 'tool_call_started', ...base, at: started, callId, tool: call.toolName, args: call.input })

    const finish = (status: 'completed' | 'error' | 'denied', output: ToolOutput, hint: string, ran = false) => {
      const forUser = output.forUser ?? output.forLlm
      const forLlm = truncateForModel(output.forLlm, this.options.outputLimits, hint).text
      emit({
        type: 'tool_call_completed',
        ...base,
        at: Date.now(),
        callId,
        tool: call.toolName,
        status,
        isError: output.isError,
        output: forUser,
        ...(ran && definition?.category === 'shell' ? { runtime: this.options.runtime.name } : {}),
        durationMs: Date.now() - executionStarted
      })
      return { forLlm, isError: output.isError }
    }

    const definition = registry.get(call.toolName)
    const checked = registry.checkArgs(call.toolName, call.input)
    if (!checked.ok || !definition) return finish('error', { forLlm: checked.ok ? `Unknown tool ${call.toolName}.` : checked.error, isError: true }, '')
    const hint = readMoreHint(call.toolName)

    let preview
    try {
      // The runtime's name is final once it has been chosen (auto probes docker and bwrap once).
      await this.options.runtime.ready?.()
      preview = definition.preview(checked.args, { workspace: this.options.workspace, runtime: this.options.runtime.name })
    } catch (error) {
      // A preview that cannot be built (a path outside the workspace) is a refused call, not a question.
      return finish('error', { forLlm: errorMessage(error), isError: true }, '')
    }

    // What runs is a private copy: nothing can change the arguments between approval and execution.
    const args = structuredClone(checked.args)
    const { workspace, runtime } = this.options
    const hash = bindingHash({ tool: call.toolName, args, workspace, runtime: runtime.name, preview })
    let assessment: RiskAssessment
    try {
      const engine = await this.options.risk
      assessment = engine.assess(
        { tool: call.toolName, category: definition.category, args },
        { workspace, autonomy: this.options.autonomy, unsandboxed: this.options.unsandboxed?.() ?? false }
      )
    } catch (error) {
      // The engine failing must never mean "run": ask instead.
      assessment = {
        verdict: 'ask',
        findings: [{ rule: 'risk.engine-error', message: `The risk engine failed: ${errorMessage(error)}`, verdict: 'ask', span: null }],
        alwaysRule: null
      }
    }
    const granted = assessment.verdict === 'ask' && this.options.grants.has(scope.conversationId, hash)
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
      return finish('denied', { forLlm: `Not allowed: ${explain(assessment, 'deny')} It did not run.`, isError: true }, '')
    }
    if (action === 'ask') {
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
        return finish('denied', { forLlm: text, isError: true }, '')
      }
      if (answer.answer === 'allow_conversation') this.options.grants.grant(scope.conversationId, hash)
      if (answer.answer === 'allow_always' && assessment.alwaysRule) this.options.saveAlwaysRule(assessment.alwaysRule, answer.approvalId)
    }
    // The binding is checked again at the last moment: what runs is what was judged and shown.
    if (bindingHash({ tool: call.toolName, args, workspace, runtime: runtime.name, preview }) !== hash) {
      return finish('denied', { forLlm: 'The call changed after it was approved, so it did not run.', isError: true }, '')
    }

    executionStarted = Date.now()
    const output = await registry.execute(call.toolName, args, {
      workspace: this.options.workspace,
      conversationId: scope.conversationId,
      runId: scope.runId,
      callId,
      signal: scope.signal,
      runtime: this.options.runtime,
      onOutput: (stream, chunk) =>
        emit({ type: 'tool_output_delta', ...base, at: Date.now(), callId, stream, chunk })
    })
    return finish(output.isError ? 'error' : 'completed', output, hint, true)
  }
}

function readMoreHint(tool: string): string {
  if (tool === 'file_read') return 'Read the rest with file_read and a larger offset.'
  if (tool === 'shell') return 'Narrow the command (grep, head, tail, sed -n) to see the omitted part.'
  return 'Ask for a narrower result to see the omitted part.'
}

/** One line for the model and the approval question: the findings that decided the verdict. */
function explain(assessment: RiskAssessment, verdict: 'ask' | 'deny'): string {
  const decisive = assessment.findings.filter((f) => f.verdict === verdict)
  const messages = [...new Set((decisive.length > 0 ? decisive : assessment.findings).map((f) => f.message))]
  return messages.slice(0, 3).join(' ') || (verdict === 'deny' ? 'Denied by policy.' : 'Needs your approval.')
}
