import { z } from 'zod'
import { AutonomySchema, errorMessage, type ScheduledTask, type ScheduledTaskInput, type ScheduleSpec } from '../../../shared'
import { defineTool, fail, ok, text, withDisplay } from '../define-tool'
import { persistsTo, trusted } from '../../provenance'

/** What the tool needs of the app's scheduler (app/scheduler.ts); the app passes it in, so tools/ never imports app/. */
export interface ScheduleToolServices {
  schedules: {
    add(input: ScheduledTaskInput): ScheduledTask
    /** The next `count` times after `after`; throws a clear error for a bad cron expression. */
    nextRunTimes(spec: ScheduleSpec, after: number, count: number): number[]
  }
}

/**
 * schedule (docs/tools.md, "Schedules"): the agent proposes a task that will run by itself later —
 * a prompt on a cron schedule or once, in this conversation's workspace. It always asks (full
 * autonomy too): the approval shows the task and its next three times, and only then is it saved.
 */
export function createScheduleTool(services: ScheduleToolServices) {
  const specOf = (args: { cron?: string; at?: string }): ScheduleSpec =>
    args.cron !== undefined ? { kind: 'cron', cron: args.cron } : { kind: 'once', at: new Date(args.at!).getTime() }
  return defineTool({
    name: 'schedule',
    repeat: 'may-differ',
    description:
      'Propose a scheduled task: a prompt DeskClaw runs by itself later, in this workspace, while the app is running — ' +
      'on a cron schedule (5 fields: minute hour day-of-month month day-of-week, local time; "0 9 * * 1-5" = weekdays at 9:00) ' +
      'or once at a local date and time ("2026-12-01T09:00"). The user is always asked first. Write the prompt so it stands on its own.',
    // A task DeskClaw keeps and acts on later: what it remembers to do.
    shortDescription: 'Propose a task that runs "prompt" later in this workspace, by 5-field "cron" or once "at" a local time; always asks first.',
    category: 'memory',
    access: 'write',
    source: trusted,
    sink: persistsTo('schedule', 'schedule'),
    asksAlways: true,
    input: z
      .object({
        name: z.string().trim().min(1).max(120).describe('A short name for the task'),
        prompt: z.string().trim().min(1).max(8000).describe('What to do each time, complete in itself'),
        cron: z.string().trim().optional().describe('A 5-field cron expression'),
        at: z.string().trim().optional().describe('Once, at this local date and time (ISO 8601)'),
        autonomy: AutonomySchema.default('supervised').describe('What may run without asking: readonly, supervised or full')
      })
      .superRefine((args, issues) => {
        if ((args.cron === undefined) === (args.at === undefined)) {
          issues.addIssue({ code: 'custom', message: 'Give exactly one of cron and at.' })
          return
        }
        if (args.at !== undefined && !(new Date(args.at).getTime() > Date.now())) {
          issues.addIssue({ code: 'custom', path: ['at'], message: 'at must be a future date and time such as 2026-12-01T09:00.' })
          return
        }
        try {
          services.schedules.nextRunTimes(specOf(args), Date.now(), 1)
        } catch (error) {
          issues.addIssue({ code: 'custom', path: ['cron'], message: errorMessage(error) })
        }
      }),
    summary: (args) => `${args.name}: ${args.cron ?? args.at}`,
    preview: (args, ctx) => {
      const next = services.schedules.nextRunTimes(specOf(args), Date.now(), 3)
      return {
        title: text('title'),
        fields: [
          { label: text('name'), value: args.name, arg: 'name' },
          { label: text('prompt'), value: args.prompt, arg: 'prompt' },
          args.cron !== undefined ? { label: text('cron'), value: args.cron, arg: 'cron' } : { label: text('at'), value: args.at!, arg: 'at' },
          { label: text('next'), value: next.map(localTime).join('\n') },
          { label: text('workspace'), value: ctx.workspace },
          { label: text('autonomy'), value: args.autonomy, arg: 'autonomy' }
        ]
      }
    },
    messages: {
      en: {
        title: 'Schedule a task',
        name: 'Name',
        prompt: 'Prompt',
        cron: 'Schedule (cron)',
        at: 'Once at',
        next: 'Next runs',
        workspace: 'Workspace',
        autonomy: 'Autonomy',
        'result.scheduled': 'Scheduled "{name}"; next run {next}.'
      },
      'zh-CN': {
        title: '添加定时任务',
        name: '名称',
        prompt: '提示词',
        cron: '计划（cron）',
        at: '执行时间（一次）',
        next: '接下来的执行时间',
        workspace: '工作区',
        autonomy: '自主级别',
        'result.scheduled': '已添加定时任务“{name}”，下次执行：{next}。'
      }
    },
    run: async (args, ctx) => {
      try {
        const task = services.schedules.add({ name: args.name, prompt: args.prompt, workspace: ctx.workspace, autonomy: args.autonomy, schedule: specOf(args) })
        const next = task.nextRunAt === null ? 'never' : localTime(task.nextRunAt)
        return withDisplay(ok(`Scheduled task ${task.id} "${task.name}" saved; next run ${next} (local time). The user can change or delete it in Schedules.`), text('result.scheduled', { name: task.name, next }))
      } catch (error) {
        return fail(`The task was not saved: ${errorMessage(error)}`)
      }
    }
  })
}

/** 2026-12-01 09:00, this computer's time: what the approval and the result show. */
function localTime(ms: number): string {
  const d = new Date(ms)
  const pad = (n: number): string => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`
}
