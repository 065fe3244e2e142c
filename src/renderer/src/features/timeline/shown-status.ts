import type { ToolCallStatus } from '../../../../shared/agent-events'
import type { ToolCallView } from '../../stores'

/** A call's status as the timeline shows it: one that Stop ended is "stopped", not a failure. */
export type ShownStatus = ToolCallStatus | 'stopped'

/**
 * Stop ends a running call with an error result whose line is the runner's `toolRun.cancelled` or
 * the tool's own `result.cancelled` (docs/architecture.md, "Texts from main"); the person asked for
 * it, so it reads as a neutral "Stopped", never a red error (issue 22, item 6).
 */
export function shownStatus(call: Pick<ToolCallView, 'status' | 'display'>): ShownStatus {
  if (call.status === 'error' && call.display && /(^|\.)cancelled$/.test(call.display.key)) return 'stopped'
  return call.status
}
