import { errorMessage, newId, type AgentEvent, type Autonomy } from '../../shared'
import type { Runtime } from '../runtime'
import { decideByCategory, type ApprovalBroker } from '../risk'
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
  autonomy: Autonomy
  workspace: string
  runtime: Runtime
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

    const finish = (status: 'completed' | 'error' | 'denied', output: ToolOutput, hint: string) => {
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
        durationMs: Date.now() - executionStarted
      })
      return { forLlm, isError: output.isError }
    }

    const checked = registry.checkArgs(call.toolName, call.input)
    if (!checked.ok) return finish('error', { forLlm: checked.error, isError: true }, '')
    const definition = registry.get(call.toolName)!
    const hint = readMoreHint(call.toolName)

    let preview
    try {
      preview = definition.preview(checked.args, { workspace: this.options.workspace })
    } catch (error) {
      // A preview that cannot be built (a path outside the workspace) is a refused call, not a question.
      return finish('error', { forLlm: errorMessage(error), isError: true }, '')
    }

    const decision = decideByCategory(call.toolName, definition.category, this.options.autonomy)
    if (decision.verdict === 'deny') {
      return finish('denied', { forLlm: `Not allowed: ${decision.reason}`, isError: true }, '')
    }
    if (decision.verdict === 'ask') {
      const answer = await this.options.approvals.request({
        ...base,
        callId,
        tool: call.toolName,
        args: checked.args,
        reason: decision.reason,
        preview,
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
    }

    executionStarted = Date.now()
    const output = await registry.execute(call.toolName, checked.args, {
      workspace: this.options.workspace,
      conversationId: scope.conversationId,
      runId: scope.runId,
      callId,
      signal: scope.signal,
      runtime: this.options.runtime,
      onOutput: (stream, chunk) =>
        emit({ type: 'tool_output_delta', ...base, at: Date.now(), callId, stream, chunk })
    })
    return finish(output.isError ? 'error' : 'completed', output, hint)
  }
}

function readMoreHint(tool: string): string {
  if (tool === 'file_read') return 'Read the rest with file_read and a larger offset.'
  if (tool === 'shell') return 'Narrow the command (grep, head, tail, sed -n) to see the omitted part.'
  return 'Ask for a narrower result to see the omitted part.'
}

/** JSON with sorted keys, so argument order does not defeat duplicate detection. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'undefined'
}
