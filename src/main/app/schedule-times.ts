import { Cron } from 'croner'
import { AppError, errorMessage, type ScheduleSpec } from '../../shared'

/**
 * When a scheduled task runs (docs/tools.md, "Schedules"): cron expressions through croner (five
 * fields, minute hour day-of-month month day-of-week, in this computer's time zone), or one time.
 */

/** The next `count` times strictly after `after`. A one-shot time has one, or none once it passed. */
export function nextRunTimes(spec: ScheduleSpec, after: number, count = 1): number[] {
  if (spec.kind === 'once') return spec.at > after ? [spec.at] : []
  return cronOf(spec.cron)
    .nextRuns(count, new Date(after))
    .map((date) => date.getTime())
}

export function nextRunTime(spec: ScheduleSpec, after: number): number | null {
  return nextRunTimes(spec, after, 1)[0] ?? null
}

/** Throws VALIDATION_FAILED with the parser's reason when the expression is not a 5-field cron expression. */
export function checkSchedule(spec: ScheduleSpec): void {
  if (spec.kind === 'cron') cronOf(spec.cron)
}

function cronOf(expression: string): Cron {
  try {
    return new Cron(expression.trim(), { mode: '5-part' })
  } catch (error) {
    const reason = errorMessage(error).replace(/^CronPattern:\s*/, '')
    throw new AppError('VALIDATION_FAILED', `"${expression}" is not a cron expression: ${reason}`, { key: 'errors.schedule.badCron', params: { cron: expression, detail: reason } })
  }
}
