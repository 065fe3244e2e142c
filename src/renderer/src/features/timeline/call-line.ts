/** What every view of one tool call shows on its line: the summary and the duration (ticking while it runs). */
import type { ToolCallView } from '../../stores'
import { oneLine, summarizeArgs } from '../../../../shared/tool-summary'
import { useT } from '../../i18n'
import { useNow } from '../common'

export function useCallLine(call: ToolCallView): { summary: string; duration: string | null; ticking: boolean } {
  const t = useT()
  const ticking = call.status === 'running' || call.status === 'pending'
  const now = useNow(1000, ticking)
  // The tool's own summary; the first plain argument for calls without one (invalid, or older records).
  const summary = call.summary !== undefined ? oneLine(call.summary) : summarizeArgs(call.args)
  const duration = call.durationMs !== null ? t.duration(call.durationMs) : ticking ? t.duration(Math.max(0, now - call.startedAt)) : null
  return { summary, duration, ticking }
}
