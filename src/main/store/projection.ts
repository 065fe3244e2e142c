import type { AgentEvent, AgentEventOf } from '../../shared'
import type { AuditAppend } from './audit-chain'
import { parseJson, toJson } from './json'
import type { Statements } from './statements'
import type { StreamingAnswers } from './streaming-answers'
import type { PendingToolOutputs } from './tool-outputs'

const TITLE_MAX_CHARS = 60

/** What a projection writes to: the statements, the audit chain of this transaction, streamed answers. */
export interface ProjectionTarget {
  statements: Statements
  audit(entry: AuditAppend): void
  answers: StreamingAnswers
  /** Tool output of this batch, appended to its call's row once per call (tool-outputs.ts). */
  outputs: PendingToolOutputs
  /** The batch's clock, for the answers' partial writes. */
  now: number
}

/**
 * Folds one AgentEvent into the read-side tables (runs, messages, tool calls, approvals) and the
 * audit log. Runs inside the batch's transaction, after the event itself is appended.
 */
export function projectEvent(target: ProjectionTarget, event: AgentEvent): void {
  // Any other event of a run ends the message it was streaming (the loop's text comes before its tool calls).
  if (event.type === 'text_delta') return target.answers.add(event, target.now)
  target.answers.end(event.runId)
  // stdout and stderr interleave into one output, as a terminal shows them; the event log keeps the stream.
  if (event.type === 'tool_output_delta') return target.outputs.add(event.runId, event.callId, event.chunk)
  if (event.type === 'tool_progress') return target.outputs.add(event.runId, event.callId, progressLine(event))
  // Any other event of the run may read or rewrite a call's row: its output so far goes in first.
  target.outputs.writeRun(event.runId)
  const statements = target.statements
  switch (event.type) {
    case 'run_started':
      return projectRunStarted(statements, event)
    case 'tool_call_started':
      return projectToolCallStarted(statements, event)
    case 'risk_assessed':
      return projectRiskAssessed(statements, event, target.audit)
    case 'approval_requested':
      return projectApprovalRequested(statements, event, target.audit)
    case 'approval_resolved':
      return projectApprovalResolved(statements, event, target.audit)
    case 'tool_call_completed':
      return projectToolCallCompleted(statements, event, target.audit)
    case 'run_completed':
      return projectRunCompleted(statements, event, target.audit)
    case 'run_failed':
      return projectRunFailed(statements, event, target.audit)
    case 'subagent_event':
      return projectSubagentEvent(event, target.audit)
    case 'context_usage':
    case 'context_compacted':
      // Kept in the event log only; a snapshot reads them back from there (event-texts.ts).
      return undefined
    default:
      return assertNever(event)
  }
}

function projectRunStarted(s: Statements, event: AgentEventOf<'run_started'>): void {
  s.insertRun.run({ runId: event.runId, conversationId: event.conversationId, at: event.at, model: event.model })
  if (event.question) s.setRunQuestion.run({ runId: event.runId, questionId: event.question.id })
  s.touchConversation.run({ conversationId: event.conversationId, at: event.at })
  const title = titleFromPrompt(event.prompt)
  if (title) s.titleUntitledConversation.run({ conversationId: event.conversationId, title })
}

function projectToolCallStarted(s: Statements, event: AgentEventOf<'tool_call_started'>): void {
  s.startToolCall.run({
    callId: event.callId,
    runId: event.runId,
    conversationId: event.conversationId,
    tool: event.tool,
    args: toJson(event.args),
    summary: event.summary ?? null,
    at: event.at
  })
}

/** A step is kept as a line of the call's output, so a reloaded conversation still says what happened. */
function progressLine(event: AgentEventOf<'tool_progress'>): string {
  return `${event.ok ? '✓' : '✗'} ${event.step.replace(/_/g, ' ')}${event.detail ? `: ${event.detail}` : ''}\n`
}

/** Every verdict is audited, including the allows nobody was asked about (docs/risk.md). */
function projectRiskAssessed(s: Statements, event: AgentEventOf<'risk_assessed'>, audit: Audit): void {
  const findings = JSON.stringify(event.assessment.findings)
  s.setToolCallRisk.run({ runId: event.runId, callId: event.callId, verdict: event.assessment.verdict, findings })
  const args = s.getToolCallArgs.get({ runId: event.runId, callId: event.callId })?.args ?? null
  writeAudit(audit, event, 'risk_decision', event.source, {
    callId: event.callId,
    tool: event.tool,
    args: parseJson(args),
    verdict: event.assessment.verdict,
    action: event.action,
    findings: event.assessment.findings
  })
}

function projectApprovalRequested(s: Statements, event: AgentEventOf<'approval_requested'>, audit: Audit): void {
  // Older emitters (and fixtures) may omit the assessment; the columns are nullable for them.
  const assessment = event.assessment as AgentEventOf<'approval_requested'>['assessment'] | undefined
  const bindingHash = (event.bindingHash as string | undefined) ?? null
  s.insertApproval.run({
    approvalId: event.approvalId,
    callId: event.callId,
    conversationId: event.conversationId,
    runId: event.runId,
    tool: event.tool,
    args: toJson(event.args),
    reason: event.reason,
    preview: JSON.stringify(event.preview),
    expiresAt: event.expiresAt,
    at: event.at,
    assessment: toJson(assessment),
    bindingHash
  })
  s.setOpenToolCallStatus.run({ runId: event.runId, callId: event.callId, status: 'awaiting_approval' })
  writeAudit(audit, event, 'approval_requested', 'policy', {
    approvalId: event.approvalId,
    callId: event.callId,
    tool: event.tool,
    args: event.args ?? null,
    verdict: assessment?.verdict ?? null,
    findings: assessment?.findings ?? [],
    bindingHash
  })
}

function projectApprovalResolved(s: Statements, event: AgentEventOf<'approval_resolved'>, audit: Audit): void {
  s.resolveApproval.run({
    approvalId: event.approvalId,
    answer: event.answer,
    by: event.by,
    reason: event.reason ?? null,
    at: event.at
  })
  // allow_once, allow_conversation and allow_always all let this call run.
  const status = event.answer === 'deny' ? 'denied' : 'running'
  s.setOpenToolCallStatus.run({ runId: event.runId, callId: event.callId, status })

  const subject = s.getApprovalSubject.get(event.approvalId)
  writeAudit(audit, event, 'approval', event.by, {
    approvalId: event.approvalId,
    callId: event.callId,
    tool: subject?.tool ?? null,
    args: parseJson(subject?.args ?? null),
    answer: event.answer,
    reason: event.reason ?? null,
    bindingHash: subject?.binding_hash ?? null
  })
}

function projectToolCallCompleted(s: Statements, event: AgentEventOf<'tool_call_completed'>, audit: Audit): void {
  s.completeToolCall.run({
    callId: event.callId,
    runId: event.runId,
    conversationId: event.conversationId,
    tool: event.tool,
    status: event.status,
    isError: event.isError ? 1 : 0,
    output: event.output,
    startedAt: event.at - event.durationMs,
    at: event.at,
    durationMs: event.durationMs,
    runtime: event.runtime ?? null,
    attachments: event.attachments && event.attachments.length > 0 ? JSON.stringify(event.attachments) : null
  })
  const args = s.getToolCallArgs.get({ runId: event.runId, callId: event.callId })?.args ?? null
  writeAudit(audit, event, 'tool_call', 'agent', {
    callId: event.callId,
    tool: event.tool,
    args: parseJson(args),
    status: event.status,
    isError: event.isError,
    durationMs: event.durationMs,
    runtime: event.runtime ?? null
  })
}

function projectRunCompleted(s: Statements, event: AgentEventOf<'run_completed'>, audit: Audit): void {
  const status = event.stopReason === 'cancelled' ? 'cancelled' : 'completed'
  s.completeRun.run({
    runId: event.runId,
    status,
    stopReason: event.stopReason,
    usage: JSON.stringify(event.usage),
    at: event.at
  })
  s.touchConversation.run({ conversationId: event.conversationId, at: event.at })
  writeAudit(audit, event, 'run', 'agent', {
    status,
    stopReason: event.stopReason,
    iterations: event.iterations,
    usage: event.usage
  })
}

function projectRunFailed(s: Statements, event: AgentEventOf<'run_failed'>, audit: Audit): void {
  s.failRun.run({ runId: event.runId, error: event.error.message, usage: event.usage ? JSON.stringify(event.usage) : null, at: event.at })
  s.touchConversation.run({ conversationId: event.conversationId, at: event.at })
  writeAudit(audit, event, 'run', 'agent', { status: 'failed', error: event.error })
}

/**
 * A sub-agent's event stays in the event log under the parent's run (docs/tools.md, "Sub-agents");
 * it makes no run, message or tool-call row of its own (the chat shows it inside the delegate call),
 * but what the audit log records of any run it records here too, naming the child run and the call.
 */
function projectSubagentEvent(event: AgentEventOf<'subagent_event'>, audit: Audit): void {
  const inner = event.event as unknown as AgentEvent
  const nested = { parentCallId: event.callId, childRunId: event.childRunId, task: event.task }
  switch (inner.type) {
    case 'risk_assessed':
      return writeAudit(audit, event, 'risk_decision', inner.source, {
        ...nested,
        callId: inner.callId,
        tool: inner.tool,
        verdict: inner.assessment.verdict,
        action: inner.action,
        findings: inner.assessment.findings
      })
    case 'tool_call_completed':
      return writeAudit(audit, event, 'tool_call', 'subagent', {
        ...nested,
        callId: inner.callId,
        tool: inner.tool,
        status: inner.status,
        isError: inner.isError,
        durationMs: inner.durationMs,
        runtime: inner.runtime ?? null
      })
    case 'run_completed':
      return writeAudit(audit, event, 'subagent_run', 'subagent', { ...nested, status: inner.stopReason === 'cancelled' ? 'cancelled' : 'completed', stopReason: inner.stopReason, iterations: inner.iterations, usage: inner.usage })
    case 'run_failed':
      return writeAudit(audit, event, 'subagent_run', 'subagent', { ...nested, status: 'failed', error: inner.error })
    default:
      return undefined
  }
}

type Audit = ProjectionTarget['audit']

function writeAudit(audit: Audit, event: AgentEvent, kind: string, actor: string, data: unknown): void {
  audit({
    at: event.at,
    kind,
    actor,
    conversationId: event.conversationId,
    runId: event.runId,
    data: JSON.stringify(data)
  })
}

/** The prompt's first non-blank line, trimmed to TITLE_MAX_CHARS (counting characters, not UTF-16 units). */
export function titleFromPrompt(prompt: string): string | null {
  const firstLine = prompt
    .split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line.length > 0)
  if (!firstLine) return null
  const chars = Array.from(firstLine)
  if (chars.length <= TITLE_MAX_CHARS) return firstLine
  return chars.slice(0, TITLE_MAX_CHARS - 1).join('').trimEnd() + '…'
}

function assertNever(value: never): never {
  throw new Error(`unknown agent event type: ${JSON.stringify(value)}`)
}
