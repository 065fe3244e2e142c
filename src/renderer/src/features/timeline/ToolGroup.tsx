import { memo } from 'react'
import { useT } from '../../i18n'
import { useCallLine } from './call-line'
import type { ToolCallView } from '../../stores'
import { ChevronIcon, Spinner, WrenchIcon } from '../common'
import type { ToolGroup } from './grouping'
import { toolNames } from './grouping'
import { StatusChip } from './ToolCallCard'
import { shownStatus } from './shown-status'
import { LatestStep } from './ToolSteps'

/**
 * A folded run of tool calls as one row: "Used 12 tools · 3 asked · 1 failed", the tools it used,
 * a spinner while some call is still going. A button: click, Enter or Space opens and closes it.
 */
export function ToolGroupRow({ group, expanded, onToggle }: { group: ToolGroup; expanded: boolean; onToggle(key: string): void }) {
  const t = useT()
  const { counts } = group
  const { names, more } = toolNames(group.calls)
  const parts = [
    t('toolGroup.used', { n: counts.total }),
    counts.asked > 0 ? t('toolGroup.asked', { n: counts.asked }) : null,
    counts.denied > 0 ? t('toolGroup.denied', { n: counts.denied }) : null,
    counts.failed > 0 ? t('toolGroup.failed', { n: counts.failed }) : null
  ].filter((part): part is string => part !== null)
  return (
    <button
      type="button"
      className={`tool-group${counts.open > 0 ? ' is-live' : ''}${counts.failed > 0 ? ' has-failed' : ''}`}
      data-testid="tool-group"
      data-group={group.key}
      data-count={counts.total}
      data-asked={counts.asked}
      data-denied={counts.denied}
      data-failed={counts.failed}
      aria-expanded={expanded}
      title={expanded ? t('toolGroup.hide') : t('toolGroup.show')}
      onClick={() => onToggle(group.key)}
    >
      <ChevronIcon size={14} className={`chevron${expanded ? ' open' : ''}`} />
      <WrenchIcon size={14} className="tool-icon" />
      <span className="tool-group-label" data-testid="tool-group-label">
        {parts.map((part, index) => (
          <span key={index} className={index === 0 ? 'tool-group-used' : 'tool-group-count'}>
            {index > 0 && ' · '}
            {part}
          </span>
        ))}
      </span>
      <span className="tool-group-tools">
        {names.join(', ')}
        {more > 0 && ` ${t('toolGroup.more', { n: more })}`}
      </span>
      <span className="tool-call-spacer" />
      {counts.open > 0 && (
        <span className="tool-group-running">
          <Spinner size={11} />
          {t('toolGroup.running', { n: counts.open })}
        </span>
      )}
    </button>
  )
}

/** One call of a folded run on one line: tool, summary, status; a click opens its full card. */
export const ToolRow = memo(function ToolRow({ call, onOpen }: { call: ToolCallView; onOpen(callId: string): void }) {
  const t = useT()
  const { summary, duration, durationTitle } = useCallLine(call)
  return (
    <button
      type="button"
      className={`tool-row status-${call.status}`}
      data-testid="tool-row"
      data-tool={call.tool}
      data-status={call.status}
      data-call-id={call.id}
      aria-expanded={false}
      title={t('toolGroup.showCall')}
      onClick={() => onOpen(call.id)}
    >
      <ChevronIcon size={12} className="chevron" />
      <span className="tool-name">{call.tool}</span>
      {summary && (
        <span className="tool-summary" title={summary} data-summary-key={call.summaryText?.key}>
          {summary}
        </span>
      )}
      <span className="tool-call-spacer" />
      {call.display && (
        <span className={`tool-row-result${call.isError ? ' is-error' : ''}`} data-testid="tool-row-result">
          {t.toolDisplay(call.tool, call.display)}
        </span>
      )}
      <LatestStep steps={call.steps} tool={call.tool} />
      {duration && (
        <span className="tool-duration" title={durationTitle}>
          {duration}
        </span>
      )}
      <StatusChip status={shownStatus(call)} />
    </button>
  )
})
