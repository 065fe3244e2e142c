/** The schedule presets the panel offers (docs/tools.md, "Schedules"): each is a cron expression; `custom` is the raw field. */
export const SCHEDULE_PRESETS = [
  { id: 'weekdays9', cron: '0 9 * * 1-5' },
  { id: 'daily9', cron: '0 9 * * *' },
  { id: 'monday9', cron: '0 9 * * 1' },
  { id: 'hourly', cron: '0 * * * *' },
  { id: 'custom', cron: null }
] as const

export type SchedulePresetId = (typeof SCHEDULE_PRESETS)[number]['id']

export function presetOf(cron: string): SchedulePresetId {
  return SCHEDULE_PRESETS.find((p) => p.cron === cron.trim())?.id ?? 'custom'
}
