import { memo, useLayoutEffect, useRef, useState } from 'react'
import type { ApprovalAnswer, ApprovalResolver } from '../../../../shared/agent-events'
import { type Translator, useT } from '../../i18n'
import { useCallLine } from './call-line'
import { hasFailedStep } from './grouping'
import { toolVerdictKind, type ToolCallView } from '../../stores'
import { AlertIcon, CheckIcon, ChevronIcon, PauseIcon, ShieldIcon, Spinner, WrenchIcon, XIcon } from '../common'
import { prettyJson } from '../../../../shared/tool-summary'
import { ToolAttachments } from './ToolAttachments'
import { ToolSteps } from './ToolSteps'
import { SubagentRuns } from './SubagentRuns'
import { MemorySaveUndo } from '../memory'
import { StepChanges } from '../checkpoints'
import { type ShownStatus, shownStatus } from './shown-status'

export function StatusChip({ status }: { status: ShownStatus }) {
  const t = useT()
  const icon =
    status === 'running' || status === 'pending' ? (
      <Spinner size={11} />
    ) : status === 'awaiting_approval' ? (
      <ShieldIcon size={12} />
    ) : status === 'completed' ? (
      <CheckIcon size={12} />
    ) : status === 'error' ? (
      <AlertIcon size={12} />
    ) : status === 'denied' ? (
      <XIcon size={12} />
    ) : (
      <PauseIcon size={12} />
    )
  return (
    <span className={`status-chip status-${status}`}>
      {icon}
      {status === 'stopped' ? t('toolStatus.stopped') : t(`toolStatus.${status}`)}
    </span>
  )
}

/**
 * How the approval was answered: the answer and who gave it, where (which front door) and when, and
 * the reason — live, and read back from the store after a reload, in a second tab or a restart.
 */
function resolutionText(t: Translator, call: ToolCallView): string | null {
  const resolution = call.answered ?? call.approval?.resolution
  if (!resolution) return null
  // A denial's result line already says who said no and why: here only where and when (issue 22, item 7).
  const saidByResult = call.status === 'denied' && call.display !== undefined
  const parts = saidByResult ? [] : [resolutionHead(t, resolution.answer, resolution.by)]
  if (call.answered?.via) parts.push(t(`resolution.via.${call.answered.via}`))
  if (call.answered?.at) parts.push(new Intl.DateTimeFormat(t.language, { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(call.answered.at))
  // A person's reason; the broker's own (timeout, cancelled…) is what the head already says, in English.
  if (resolution.reason && resolution.by === 'user' && !saidByResult) parts.push(t('tool.deniedReason', { reason: resolution.reason }))
  return parts.length > 0 ? parts.join(' · ') : null
}

function resolutionHead(t: Translator, answer: ApprovalAnswer, by: ApprovalResolver): string {
  switch (answer) {
    case 'allow_once':
    case 'deny':
      return t(`resolution.${answer}.${by}`)
    case 'allow_conversation':
    case 'allow_always':
      // Only a person gives these answers; anything else reads like a plain allow.
      return by === 'user' ? t(`resolution.${answer}.user`) : t(`resolution.allow_once.${by}`)
  }
}

function VerdictTag({ call }: { call: ToolCallView }) {
  const t = useT()
  const kind = toolVerdictKind(call)
  if (!kind) return null
  const verdict = call.risk?.assessment.verdict ?? call.verdict ?? 'allow'
  const findings = call.risk?.assessment.findings ?? []
  const title = findings
    .filter((f) => f.verdict !== 'allow' || kind === 'safe')
    // In the UI's language, as the approval modal says it (the engine's message is English).
    .map((f) => t.finding(f))
    .join('\n')
  return (
    <span
      className={`tool-verdict kind-${kind}`}
      data-testid="tool-verdict"
      data-kind={kind}
      data-verdict={verdict}
      title={title || undefined}
    >
      {kind === 'blocked' ? <AlertIcon size={11} /> : <ShieldIcon size={11} />}
      {t(`toolVerdict.${kind}`)}
    </span>
  )
}

/**
 * The result in one translated line (tool_call_completed.display), above the raw output, which
 * stays what the tool printed (docs/architecture.md, "Texts from main").
 */
export function ToolResultLine({ call }: { call: ToolCallView }) {
  const t = useT()
  if (!call.display) return null
  return (
    <div
      className={`tool-result-line${call.isError && shownStatus(call) !== 'stopped' ? ' is-error' : ''}`}
      data-testid="tool-result-line"
      data-key={call.display.key}
    >
      {t.toolDisplay(call.tool, call.display)}
    </div>
  )
}

function ToolOutput({ call }: { call: ToolCallView }) {
  const t = useT()
  const ref = useRef<HTMLPreElement>(null)
  const stick = useRef(true)
  const live = call.segments.length > 0
  const empty = call.output.length === 0

  // Follow streaming output unless the user scrolled up to read.
  useLayoutEffect(() => {
    const el = ref.current
    if (el && stick.current) el.scrollTop = el.scrollHeight
  }, [call.output])

  return (
    <div className="tool-section">
      <div className="tool-section-label">{t('tool.output')}</div>
      {empty && (
        <div className="tool-output-empty">
          {call.status === 'running' || call.status === 'pending' ? t('tool.waitingOutput') : t('tool.noOutput')}
        </div>
      )}
      <pre
        ref={ref}
        className={`tool-output${call.isError && !live && shownStatus(call) !== 'stopped' ? ' is-error' : ''}${empty ? ' is-empty' : ''}`}
        data-testid="tool-call-output"
        onScroll={(event) => {
          const el = event.currentTarget
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24
        }}
      >
        {live
          ? call.segments.map((segment, index) => (
              <span key={index} className={segment.stream === 'stderr' ? 'stderr' : undefined}>
                {segment.text}
              </span>
            ))
          : call.output}
      </pre>
    </div>
  )
}

/**
 * `onCollapse`: the card was opened from a folded run's compact row; its header folds it back to
 * that row (instead of hiding the card's body).
 */
function ToolCallCardImpl({ call, onCollapse }: { call: ToolCallView; onCollapse?: () => void }) {
  const t = useT()
  const status = shownStatus(call)
  // Null until the person opens or folds it: then the card follows the call (folded once finished).
  const [chosen, setChosen] = useState<boolean | null>(null)
  const expanded = onCollapse ? true : (chosen ?? opensByItself(status))
  const [argsOpen, setArgsOpen] = useState(false)
  const { summary, duration, durationTitle } = useCallLine(call)
  const resolution = resolutionText(t, call)
  // A denial is said once, by its result line; where and when it was answered go under it.
  const deniedWithLine = call.status === 'denied' && call.display !== undefined
  const saidByLine = call.display !== undefined && call.output === '' && call.segments.length === 0
  const args = prettyJson(call.args)
  const failedStep = hasFailedStep(call)
  // "Exited with code 0 (ran in docker)" already names the runtime: no chip repeating it.
  const lineSaysRuntime = call.display?.params?.runtime !== undefined && call.display.params.runtime === call.runtime

  return (
    <div
      className={`tool-call status-${status}${failedStep ? ' has-failed-step' : ''}`}
      data-testid="tool-call"
      data-status={call.status}
      data-shown-status={status}
      data-tool={call.tool}
      data-call-id={call.id}
    >
      <button
        type="button"
        className="tool-call-header"
        aria-expanded={expanded}
        title={onCollapse ? t('toolGroup.hideCall') : undefined}
        onClick={() => (onCollapse ? onCollapse() : setChosen(!expanded))}
      >
        <ChevronIcon size={14} className={`chevron${expanded ? ' open' : ''}`} />
        <WrenchIcon size={14} className="tool-icon" />
        <span className="tool-name">{call.tool}</span>
        {summary && (
          // data-summary-key: the summary is the tool's message code, in the UI's language (the Chinese walk reads it).
          <span className="tool-summary" title={summary} data-summary-key={call.summaryText?.key}>
            {summary}
          </span>
        )}
        <span className="tool-call-spacer" />
        {/* Folded, the line says how it ended; open, the body says it (once). */}
        {!expanded && call.display && (
          <span className={`tool-header-result${call.isError && status !== 'stopped' ? ' is-error' : ''}`} data-testid="tool-header-result">
            {t.toolDisplay(call.tool, call.display)}
          </span>
        )}
        {call.runtime && !lineSaysRuntime && (
          <span className="tool-runtime" data-testid="tool-runtime" title={t('tool.runtime', { runtime: call.runtime })}>
            {call.runtime}
          </span>
        )}
        {call.cached && (
          <span className="tool-runtime tool-cached" data-testid="tool-cached" title={t('tool.cachedHint')}>
            {t('tool.cached')}
          </span>
        )}
        <VerdictTag call={call} />
        <StatusChip status={status} />
        {duration && (
          <span className="tool-duration" data-testid="tool-duration" title={durationTitle}>
            {duration}
          </span>
        )}
      </button>
      {/* A save the call made offers its undo, folded or not (docs/tools.md, "Memory"). */}
      {call.status === 'completed' && <MemorySaveUndo callId={call.id} />}
      {/* What it changed in the workspace: the diff and its undo, folded or not (docs/checkpoints.md). */}
      <StepChanges call={call} />
      {expanded && (
        <div className="tool-call-body">
          {resolution && !deniedWithLine && (
            <div className={`tool-resolution${(call.answered ?? call.approval?.resolution)?.answer === 'deny' ? ' denied' : ''}`} data-testid="tool-resolution">
              {resolution}
            </div>
          )}
          {args && (
            <div className="tool-section">
              <button
                type="button"
                className="tool-section-toggle"
                aria-expanded={argsOpen}
                onClick={() => setArgsOpen((v) => !v)}
              >
                <ChevronIcon size={12} className={`chevron${argsOpen ? ' open' : ''}`} />
                {t('tool.arguments')}
              </button>
              {argsOpen && <pre className="tool-args">{args}</pre>}
            </div>
          )}
          {call.steps && call.steps.length > 0 && <ToolSteps steps={call.steps} tool={call.tool} />}
          {call.subagents && call.subagents.length > 0 && <SubagentRuns subagents={call.subagents} />}
          <ToolResultLine call={call} />
          {resolution && deniedWithLine && (
            <div className="tool-resolution is-meta" data-testid="tool-resolution">
              {resolution}
            </div>
          )}
          {/* A denied call never ran: its "output" is what the model was told, said once by the result line. */}
          {/* A result said whole by its line (a file written) has no output box: the same fact once (issue 22, item 8). */}
          {call.status !== 'awaiting_approval' && call.status !== 'denied' && !(saidByLine && call.status === 'completed') && <ToolOutput call={call} />}
          {call.status === 'denied' && call.output && !call.display && <ToolOutput call={call} />}
          {call.attachments && call.attachments.length > 0 && (
            <ToolAttachments attachments={call.attachments} tool={call.tool} />
          )}
        </div>
      )}
    </div>
  )
}

/**
 * Whether a card is open before the person chooses (issue 22, item 8): a call still going or waiting
 * for an answer is open, and so is a failure (what went wrong is what one reads next); a finished
 * call is one line — summary, how it ended, status, duration — opened by a click, Enter or Space.
 */
export function opensByItself(status: ShownStatus): boolean {
  return status === 'running' || status === 'pending' || status === 'awaiting_approval' || status === 'error'
}

export const ToolCallCard = memo(ToolCallCardImpl)
