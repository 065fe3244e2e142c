import type Database from 'better-sqlite3'
import { AppError, newId, ScheduleSpecSchema, type Autonomy, type ScheduledRunStatus, type ScheduledTask, type ScheduleSpec } from '../../shared'

/**
 * Scheduled tasks in the conversation file (schema 10; docs/tools.md, "Schedules"). The store keeps
 * what a task is, when it runs next and how its latest run went; when to run is the scheduler's
 * (app/scheduler.ts), which computes `nextRunAt`.
 */

export interface NewScheduledTask {
  name: string
  prompt: string
  workspace: string
  autonomy: Autonomy
  schedule: ScheduleSpec
  enabled: boolean
  nextRunAt: number | null
}

export type ScheduledTaskChange = Partial<NewScheduledTask>

interface TaskRow {
  id: string
  name: string
  prompt: string
  workspace: string
  autonomy: Autonomy
  schedule: string
  enabled: number
  next_run_at: number | null
  created_at: number
  updated_at: number
  last_run_id: string | null
  last_conversation_id: string | null
  last_status: ScheduledRunStatus | null
  last_run_at: number | null
  last_error: string | null
}

export class ScheduleStore {
  constructor(
    private readonly db: Database.Database,
    /** Commits queued events first, so a read sees the runs they name. */
    private readonly beforeAccess: () => void = () => {}
  ) {}

  list(): ScheduledTask[] {
    this.beforeAccess()
    return (this.db.prepare('SELECT * FROM scheduled_tasks ORDER BY created_at, id').all() as TaskRow[]).map(toTask)
  }

  get(id: string): ScheduledTask | null {
    this.beforeAccess()
    const row = this.db.prepare('SELECT * FROM scheduled_tasks WHERE id = ?').get(id) as TaskRow | undefined
    return row ? toTask(row) : null
  }

  /** Enabled tasks whose next run is at or before `now`, earliest first. */
  due(now: number): ScheduledTask[] {
    this.beforeAccess()
    const rows = this.db.prepare('SELECT * FROM scheduled_tasks WHERE enabled = 1 AND next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at').all(now) as TaskRow[]
    return rows.map(toTask)
  }

  /** The earliest next run of an enabled task, or null. */
  nextDue(): number | null {
    this.beforeAccess()
    const row = this.db.prepare('SELECT MIN(next_run_at) AS at FROM scheduled_tasks WHERE enabled = 1 AND next_run_at IS NOT NULL').get() as { at: number | null }
    return row.at
  }

  add(task: NewScheduledTask, now: number): ScheduledTask {
    this.beforeAccess()
    const id = newId('task')
    this.db
      .prepare(
        `INSERT INTO scheduled_tasks (id, name, prompt, workspace, autonomy, schedule, enabled, next_run_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      )
      .run(id, task.name, task.prompt, task.workspace, task.autonomy, JSON.stringify(task.schedule), task.enabled ? 1 : 0, task.nextRunAt, now, now)
    return this.get(id)!
  }

  update(id: string, change: ScheduledTaskChange, now: number): ScheduledTask {
    const current = this.get(id)
    if (!current) throw notFound(id)
    const next = { ...current, ...change }
    this.db
      .prepare(
        `UPDATE scheduled_tasks SET name = ?, prompt = ?, workspace = ?, autonomy = ?, schedule = ?, enabled = ?, next_run_at = ?, updated_at = ?
         WHERE id = ?`
      )
      .run(next.name, next.prompt, next.workspace, next.autonomy, JSON.stringify(next.schedule), next.enabled ? 1 : 0, next.nextRunAt, now, id)
    return this.get(id)!
  }

  remove(id: string): boolean {
    this.beforeAccess()
    return this.db.prepare('DELETE FROM scheduled_tasks WHERE id = ?').run(id).changes > 0
  }

  /** A run began (or could not begin: `status` failed with its error). */
  recordRun(id: string, run: { runId: string | null; conversationId: string | null; status: ScheduledRunStatus; at: number; error?: string | null }): void {
    this.beforeAccess()
    this.db
      .prepare('UPDATE scheduled_tasks SET last_run_id = ?, last_conversation_id = ?, last_status = ?, last_run_at = ?, last_error = ? WHERE id = ?')
      .run(run.runId, run.conversationId, run.status, run.at, run.error ?? null, id)
  }

  /** How the run `runId` ended; a later run of the task is left as it is. */
  recordRunEnd(id: string, runId: string, status: ScheduledRunStatus, error: string | null): void {
    this.beforeAccess()
    this.db.prepare('UPDATE scheduled_tasks SET last_status = ?, last_error = ? WHERE id = ? AND last_run_id = ?').run(status, error, id, runId)
  }

  /** Runs left `running` by a crash or a quit: they ended with the process. */
  recoverInterrupted(): number {
    return this.db.prepare("UPDATE scheduled_tasks SET last_status = 'cancelled', last_error = 'DeskClaw stopped during the run.' WHERE last_status = 'running'").run().changes
  }
}

function notFound(id: string): AppError {
  return new AppError('NOT_FOUND', `Scheduled task ${id} does not exist.`, { key: 'errors.schedule.notFound', params: { id } })
}

function toTask(row: TaskRow): ScheduledTask {
  return {
    id: row.id,
    name: row.name,
    prompt: row.prompt,
    workspace: row.workspace,
    autonomy: row.autonomy,
    schedule: ScheduleSpecSchema.parse(JSON.parse(row.schedule)),
    enabled: row.enabled === 1,
    nextRunAt: row.next_run_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastRun:
      row.last_status === null
        ? null
        : { runId: row.last_run_id, conversationId: row.last_conversation_id, status: row.last_status, at: row.last_run_at ?? row.updated_at, error: row.last_error }
  }
}
