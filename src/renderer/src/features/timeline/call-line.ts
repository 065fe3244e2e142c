/** What every view of one tool call shows on its line: the summary and the duration (ticking while it runs). */
import type { ToolCallView } from '../../stores'
import { oneLine, summarizeArgs } from '../../../../shared/tool-summary'
import { useT } from '../../i18n'
import { useNow } from '../common'

/**
 * `duration`: while it runs, the time since it started (a wait for approval included), said as
 * "so far"; once done, how long it ran (the wait not counted). `durationTitle` says which is which
 * (issue 22, item 6).
 */
export function useCallLine(call: ToolCallView): { summary: string; duration: string | null; durationTitle: string | undefined; ticking: boolean } {
  const t = useT()
  const ticking = call.status === 'running' || call.status === 'pending'
  const now = useNow(1000, ticking)
  // The tool's own summary (in the UI's language when it has words); the first plain argument for calls without one (invalid, or older records).
  const summary = call.summaryText ? oneLine(t.toolDisplay(call.tool, call.summaryText)) : call.summary !== undefined ? oneLine(call.summary) : summarizeArgs(call.args)
  const duration =
    call.durationMs !== null
      ? t('tool.ranFor', { d: t.duration(call.durationMs) })
      : ticking
        ? t('tool.soFar', { d: t.duration(Math.max(0, now - call.startedAt)) })
        : null
  const durationTitle = call.durationMs !== null ? t('tool.ranForHint') : ticking ? t('tool.soFarHint') : undefined
  return { summary, duration, durationTitle, ticking }
}
