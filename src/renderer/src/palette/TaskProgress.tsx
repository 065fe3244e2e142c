import { memo, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { ChatMessage } from '../../../shared/bridge'
import { oneLine } from '../../../shared/tool-summary'
import { AlertIcon, ChevronIcon } from '../features/common'
import { Markdown } from '../features/chat/Markdown'
import { LatestStep, shownStatus, StatusChip, ToolCallCard, useCallLine } from '../features/timeline'
import { type Translator, useT } from '../i18n'
import { buildTimeline, type ChatSnapshot, type RunView, type ToolCallView } from '../stores'

/** What the palette says about its task, from the run and its calls. */
export type TaskStatus = 'starting' | 'running' | 'awaiting_approval' | 'done' | 'failed' | 'cancelled' | 'interrupted'

export function taskStatus(run: RunView | undefined, calls: readonly ToolCallView[]): TaskStatus {
  if (!run) return 'starting'
  switch (run.status) {
    case 'running':
      return calls.some((c) => c.runId === run.id && c.status === 'awaiting_approval') ? 'awaiting_approval' : 'running'
    case 'completed':
      return 'done'
    default:
      return run.status
  }
}

export function statusText(t: Translator, status: TaskStatus): string {
  switch (status) {
    case 'starting':
      return t('palette.starting')
    case 'running':
      return t('palette.running')
    case 'awaiting_approval':
      return t('palette.awaitingApproval')
    case 'done':
      return t('palette.done')
    case 'failed':
      return t('palette.failed')
    case 'cancelled':
      return t('palette.cancelled')
    case 'interrupted':
      return t('palette.interrupted')
  }
}

/** One tool call as a single row (status, tool, what it does, how long); a click shows the full card. */
const ToolRow = memo(function ToolRow({ call }: { call: ToolCallView }) {
  const t = useT()
  const [open, setOpen] = useState(false)
  const { summary, duration } = useCallLine(call)
  return (
    <li
      className={`palette-tool status-${call.status}`}
      data-testid="palette-tool"
      data-status={call.status}
      data-tool={call.tool}
      data-call-id={call.id}
    >
      <button
        type="button"
        className="palette-tool-row"
        aria-expanded={open}
        title={open ? t('palette.hideDetails') : t('palette.showDetails')}
        onClick={() => setOpen((v) => !v)}
      >
        <ChevronIcon size={12} className={`chevron${open ? ' open' : ''}`} />
        <span className="palette-tool-name">{call.tool}</span>
        {summary && <span className="palette-tool-summary">{summary}</span>}
        <span className="palette-spacer" />
        <LatestStep steps={call.steps} tool={call.tool} />
        {duration && <span className="palette-tool-duration">{duration}</span>}
        <StatusChip status={shownStatus(call)} />
      </button>
      {open && (
        <div className="palette-tool-card">
          <ToolCallCard call={call} />
        </div>
      )}
    </li>
  )
})

function runEndText(t: Translator, run: RunView): string {
  if (run.status === 'failed') return run.error ? t.error(run.error) : t('error.INTERNAL')
  if (run.status === 'interrupted') return t('chat.runInterrupted')
  if (run.stopReason === 'max_iterations') return t('chat.runMaxIterations', { n: run.iterations ?? '?' })
  return t('chat.runCancelled')
}

function StepNote({ message }: { message: ChatMessage }) {
  return (
    <li className="palette-step-note" data-testid="palette-step-note" title={message.content}>
      {oneLine(message.content)}
    </li>
  )
}

/**
 * The task's progress, live: what the model said along the way (one line each), every tool call
 * as a row, how the run ended if it did not simply finish, and the last thing the model said as
 * the answer (Markdown), streamed while it is written.
 */
export function TaskProgress({ snapshot, runId, status }: { snapshot: ChatSnapshot | null; runId: string | null; status: TaskStatus }) {
  const t = useT()
  const items = useMemo(
    () =>
      snapshot
        ? buildTimeline(snapshot).filter((item) => {
            if (item.kind === 'message') return item.message.role === 'assistant' && item.message.runId === runId
            if (item.kind === 'tool') return item.call.runId === runId
            if (item.kind === 'compaction') return false // the chat's timeline shows these
            return item.run.id === runId
          })
        : [],
    [snapshot, runId]
  )
  const scroller = useRef<HTMLDivElement>(null)
  const stick = useRef(true)

  useLayoutEffect(() => {
    const el = scroller.current
    if (el && stick.current) el.scrollTop = el.scrollHeight
  }, [items, status])

  const last = items[items.length - 1]
  const answer = last?.kind === 'message' ? last.message : null
  const steps = answer ? items.slice(0, -1) : items
  const live = status === 'running' || status === 'starting'
  const busyTool = last?.kind === 'tool' && (last.call.status === 'running' || last.call.status === 'pending')

  return (
    <div
      className="palette-progress"
      ref={scroller}
      data-testid="palette-progress"
      onScroll={(event) => {
        const el = event.currentTarget
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 32
      }}
    >
      {steps.length > 0 && (
        <ol className="palette-steps" data-testid="palette-steps">
          {steps.map((item) => {
            if (item.kind === 'message') return <StepNote key={item.key} message={item.message} />
            if (item.kind === 'tool') return <ToolRow key={item.key} call={item.call} />
            if (item.kind === 'compaction') return null
            return (
              <li
                key={item.key}
                className={`palette-run-end${item.run.status === 'failed' ? ' failed' : ''}`}
                data-testid="palette-run-end"
                role={item.run.status === 'failed' ? 'alert' : undefined}
              >
                {item.run.status === 'failed' && <AlertIcon size={14} />}
                <span>{runEndText(t, item.run)}</span>
              </li>
            )
          })}
        </ol>
      )}
      {answer && (
        <section
          className="palette-answer"
          data-testid="palette-answer"
          data-final={status === 'done' ? 'true' : 'false'}
          aria-label={t('palette.answer')}
          aria-live={live ? 'polite' : undefined}
        >
          <Markdown text={answer.content} />
        </section>
      )}
      {live && !answer && !busyTool && (
        <div className="thinking palette-thinking" data-testid="palette-thinking" aria-live="polite">
          <span className="dots" aria-hidden="true">
            <i />
            <i />
            <i />
          </span>
          <span>{t('chat.thinking')}</span>
        </div>
      )}
    </div>
  )
}
