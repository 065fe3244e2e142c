/**
 * Scheduled tasks (docs/tools.md, "Schedules"): a prompt run in a workspace at an autonomy level,
 * on a cron schedule or once at a time, while DeskClaw runs. Each run is a conversation of its own.
 */
import { z } from 'zod'
import { defineCall } from './define-call'
import { AutonomySchema } from './settings'

export const SCHEDULE_PROMPT_MAX = 8000

/** When a task runs: a 5-field cron expression (minute hour day month weekday, local time), or once. */
export const ScheduleSpecSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('cron'), cron: z.string().trim().min(9).max(200) }),
  /** Milliseconds since the epoch. */
  z.object({ kind: z.literal('once'), at: z.number().int().positive() })
])
export type ScheduleSpec = z.infer<typeof ScheduleSpecSchema>

export const ScheduledRunStatusSchema = z.enum(['running', 'completed', 'failed', 'cancelled'])
export type ScheduledRunStatus = z.infer<typeof ScheduledRunStatusSchema>

export const ScheduledTaskInputSchema = z.object({
  name: z.string().trim().min(1).max(120),
  prompt: z.string().trim().min(1).max(SCHEDULE_PROMPT_MAX),
  /** An absolute folder the run works in. */
  workspace: z.string().trim().min(1).max(4096),
  autonomy: AutonomySchema,
  schedule: ScheduleSpecSchema,
  enabled: z.boolean().default(true)
})
export type ScheduledTaskInput = z.input<typeof ScheduledTaskInputSchema>

export const ScheduledTaskSchema = ScheduledTaskInputSchema.extend({
  id: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** The next time it runs; null when it will not (disabled, or a one-shot already run). */
  nextRunAt: z.number().nullable(),
  /** Its latest run: the conversation to open, how it ended. */
  lastRun: z
    .object({
      runId: z.string().nullable(),
      conversationId: z.string().nullable(),
      status: ScheduledRunStatusSchema,
      at: z.number(),
      error: z.string().nullable()
    })
    .nullable()
})
export type ScheduledTask = z.infer<typeof ScheduledTaskSchema>


export const scheduleCalls = {
  /** Every task, oldest first, and what missed runs do (setting scheduleMissedRuns). */
  'schedules.list': defineCall(z.object({}), z.object({ tasks: z.array(ScheduledTaskSchema) })),
  'schedules.add': defineCall(ScheduledTaskInputSchema, ScheduledTaskSchema),
  'schedules.update': defineCall(z.object({ id: z.string().min(1), change: ScheduledTaskInputSchema.partial() }), ScheduledTaskSchema),
  'schedules.remove': defineCall(z.object({ id: z.string().min(1) }), z.object({ removed: z.boolean() })),
  /** Runs a task now; its run is a new conversation. */
  'schedules.runNow': defineCall(z.object({ id: z.string().min(1) }), z.object({ runId: z.string().nullable(), conversationId: z.string().nullable() })),
  /** The next `count` run times of a schedule (the panel shows three); VALIDATION_FAILED with the reason for a bad cron. */
  'schedules.preview': defineCall(z.object({ schedule: ScheduleSpecSchema, count: z.number().int().min(1).max(10).default(3) }), z.object({ times: z.array(z.number()) }))
} as const
