/** The schedule tool (docs/tools.md, "Schedules"): the agent proposes a task that runs later; it always asks. */
import { toolPack, type ToolSource } from '../source'
import { createScheduleTool, type ScheduleToolServices } from './schedule'

export type { ScheduleToolServices } from './schedule'

export function createScheduleTools(services: ScheduleToolServices): ToolSource {
  return toolPack('schedule', [createScheduleTool(services)])
}
