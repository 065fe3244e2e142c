/**
 * `deskclaw schedule add | list | remove | run-now` (docs/cli.md, docs/tools.md "Schedules"): the
 * scheduled tasks the app runs while it runs, managed from a terminal. Adding one here is the
 * user's own act (no question); `run-now` runs a task in this process and prints its events.
 */
import { parseArgs } from 'node:util'
import { resolve } from 'node:path'
import { AutonomySchema, errorMessage, type ScheduledTask, type ScheduleSpec } from '../../shared'
import { DeskclawApp, defaultDataDir, nextRunTimes, settingsFromEnv } from '../app'
import { attachCliApprover } from './approver'
import { UsageError } from './args'
import { EXIT } from './help'
import { printHuman, printJson } from './printer'

export const SCHEDULE_HELP = `deskclaw schedule — tasks DeskClaw runs on a schedule while it runs

usage:
  deskclaw schedule list [--json]
  deskclaw schedule add --name NAME --prompt TEXT (--cron EXPR | --at TIME)
                        [--workspace DIR] [--autonomy readonly|supervised|full] [--disabled] [--json]
  deskclaw schedule remove ID
  deskclaw schedule run-now ID [--json] [--approve ask|allow|deny]

  --cron EXPR   minute hour day-of-month month day-of-week, this computer's time ("0 9 * * 1-5": weekdays at 9:00)
  --at TIME     once, at an ISO date and time ("2026-12-01T09:00")
  --workspace   the folder the task works in (default: the current folder)
  --autonomy    what runs without asking (default: supervised); a question nobody answers is denied after the approval timeout
  --data-dir    the DeskClaw data folder (default: DESKCLAW_HOME or the platform's)
`

export interface ScheduleArgs {
  action: 'list' | 'add' | 'remove' | 'run-now'
  id?: string
  name?: string
  prompt?: string
  schedule?: ScheduleSpec
  workspace: string
  autonomy: ScheduledTask['autonomy']
  enabled: boolean
  approve: 'ask' | 'allow' | 'deny'
  json: boolean
  dataDir?: string
  help: boolean
}

export function parseScheduleArgs(argv: string[]): ScheduleArgs {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        name: { type: 'string' },
        prompt: { type: 'string' },
        cron: { type: 'string' },
        at: { type: 'string' },
        workspace: { type: 'string' },
        autonomy: { type: 'string' },
        disabled: { type: 'boolean' },
        approve: { type: 'string' },
        json: { type: 'boolean' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' }
      },
      allowPositionals: true,
      strict: true
    })
  } catch (error) {
    throw new UsageError(errorMessage(error))
  }
  const { values, positionals } = parsed
  const [action, id, ...extra] = positionals
  const autonomy = AutonomySchema.safeParse(values.autonomy ?? 'supervised')
  if (!autonomy.success) throw new UsageError(`--autonomy must be readonly, supervised or full (got "${values.autonomy}")`)
  const approve = values.approve ?? 'ask'
  if (approve !== 'ask' && approve !== 'allow' && approve !== 'deny') throw new UsageError(`--approve must be ask, allow or deny (got "${approve}")`)
  const args: ScheduleArgs = {
    action: 'list',
    workspace: resolve(values.workspace ?? process.cwd()),
    autonomy: autonomy.data,
    enabled: !values.disabled,
    approve,
    json: Boolean(values.json),
    help: Boolean(values.help),
    ...(values['data-dir'] ? { dataDir: resolve(values['data-dir']) } : {})
  }
  if (args.help) return args
  if (extra.length > 0) throw new UsageError(`unexpected "${extra.join(' ')}" (try: deskclaw schedule --help)`)
  if (action === 'list') {
    if (id !== undefined) throw new UsageError('schedule list takes no arguments')
    return args
  }
  if (action === 'remove' || action === 'run-now') {
    if (!id) throw new UsageError(`usage: deskclaw schedule ${action} ID`)
    return { ...args, action, id }
  }
  if (action === 'add') {
    if (id !== undefined) throw new UsageError(`schedule add takes options only, not "${id}"`)
    if (!values.name || !values.prompt) throw new UsageError('schedule add needs --name and --prompt')
    if ((values.cron === undefined) === (values.at === undefined)) throw new UsageError('schedule add needs one of --cron EXPR and --at TIME')
    let schedule: ScheduleSpec
    if (values.cron !== undefined) schedule = { kind: 'cron', cron: values.cron }
    else {
      const at = new Date(values.at!).getTime()
      if (!Number.isFinite(at)) throw new UsageError(`--at needs a date and time such as 2026-12-01T09:00 (got "${values.at}")`)
      schedule = { kind: 'once', at }
    }
    return { ...args, action, name: values.name, prompt: values.prompt, schedule }
  }
  throw new UsageError(`schedule needs list, add, remove ID or run-now ID (got "${action ?? ''}")`)
}

export async function scheduleMain(argv: string[]): Promise<number> {
  const args = parseScheduleArgs(argv)
  if (args.help) {
    process.stdout.write(SCHEDULE_HELP)
    return EXIT.done
  }
  const app = DeskclawApp.create({ dataDir: args.dataDir ?? defaultDataDir(), overrides: settingsFromEnv(process.env), startMcpServers: false })
  try {
    return await scheduleCommand(app, args)
  } finally {
    await app.close()
  }
}

async function scheduleCommand(app: DeskclawApp, args: ScheduleArgs): Promise<number> {
  const out = (text: string): void => void process.stdout.write(text)
  if (args.action === 'list') {
    const tasks = app.schedules.list()
    out(args.json ? JSON.stringify(tasks, null, 2) + '\n' : formatTasks(tasks))
    return EXIT.done
  }
  if (args.action === 'add') {
    const task = app.schedules.add({ name: args.name!, prompt: args.prompt!, workspace: args.workspace, autonomy: args.autonomy, schedule: args.schedule!, enabled: args.enabled })
    out(args.json ? JSON.stringify(task, null, 2) + '\n' : `added ${task.id}: ${describe(task)}\n${nextTimes(task)}`)
    return EXIT.done
  }
  if (args.action === 'remove') {
    if (!app.schedules.remove(args.id!)) throw new UsageError(`no scheduled task ${args.id}`)
    out(`removed ${args.id}\n`)
    return EXIT.done
  }
  // run-now: the task's run in this process, its events printed as `deskclaw run` prints them.
  const detach = attachCliApprover(app, args.approve, Boolean(process.stdin.isTTY && process.stderr.isTTY))
  const print = args.json ? printJson : printHuman
  const unsubscribe = app.events.subscribe((event) => {
    if (event.kind === 'agent') print(event.event)
  })
  try {
    await app.mcp.ready()
    const started = app.schedules.runNow(args.id!)
    const status = await started.done
    const task = app.schedules.list().find((t) => t.id === args.id)
    if (!args.json) process.stderr.write(`scheduled run ${status}; conversation ${started.conversationId ?? '-'}\n`)
    if (status === 'failed') {
      process.stderr.write(`deskclaw: ${task?.lastRun?.error ?? 'the run failed'}\n`)
      return EXIT.failed
    }
    return status === 'cancelled' ? EXIT.cancelled : EXIT.done
  } finally {
    unsubscribe()
    detach()
  }
}

function describe(task: ScheduledTask): string {
  const when = task.schedule.kind === 'cron' ? `cron "${task.schedule.cron}"` : `once at ${new Date(task.schedule.at).toLocaleString()}`
  return `${task.name} — ${when}, ${task.autonomy}, in ${task.workspace}${task.enabled ? '' : ' (disabled)'}`
}

function nextTimes(task: ScheduledTask): string {
  if (!task.enabled) return ''
  const times = nextRunTimes(task.schedule, Date.now(), 3)
  return times.length === 0 ? 'next: never (the time has passed)\n' : `next: ${times.map((t) => new Date(t).toLocaleString()).join(', ')}\n`
}

function formatTasks(tasks: ScheduledTask[]): string {
  if (tasks.length === 0) return 'no scheduled tasks (add one: deskclaw schedule add --help)\n'
  return (
    tasks
      .map((task) => {
        const next = task.nextRunAt ? new Date(task.nextRunAt).toLocaleString() : '-'
        const last = task.lastRun ? `${task.lastRun.status} ${new Date(task.lastRun.at).toLocaleString()}${task.lastRun.conversationId ? ` (${task.lastRun.conversationId})` : ''}` : 'never run'
        return `${task.id}  ${describe(task)}\n  next: ${next}   last: ${last}${task.lastRun?.error ? `\n  error: ${task.lastRun.error}` : ''}`
      })
      .join('\n') + '\n'
  )
}
