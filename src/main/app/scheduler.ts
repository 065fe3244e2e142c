import { AppError, errorMessage, ScheduledTaskInputSchema, type AgentEvent, type Language, type MissedRunPolicy, type ScheduledRunStatus, type ScheduledTask, type ScheduledTaskInput } from '../../shared'
import type { AgentRunOutcome } from '../agent'
import type { AppService } from '../lifecycle'
import type { NotificationService } from '../notifications'
import type { ConversationStore, ScheduledTaskChange, ScheduleStore } from '../store'
import type { Clock } from './clock'
import { scheduleNotice } from './schedule-notices'
import { checkSchedule, nextRunTime } from './schedule-times'

/** A run this late at start (or after the computer slept) was missed, not merely due: the setting decides. */
export const MISSED_AFTER_MS = 60_000
/** The timer is re-armed at least this often, so a wrong wake-up (sleep, clock change) is caught. */
const MAX_WAIT_MS = 10 * 60_000

export interface SchedulerDeps {
  schedules: ScheduleStore
  store: ConversationStore
  clock: Clock
  notifications: NotificationService
  /** Starts a run in a conversation at the task's autonomy (AgentService.send). */
  send(conversationId: string, prompt: string, options: { autonomy: ScheduledTask['autonomy'] }): { runId: string }
  wait(runId: string): Promise<AgentRunOutcome>
  cancel(runId: string): void
  /** Hears the agent's events (to tell the user when a scheduled run waits for an approval). */
  onAgentEvent(listener: (event: AgentEvent) => void): () => void
  /**
   * Marks someone as able to answer while an unattended run waits (the broker denies at once when
   * nobody is): the notification and the native dialog reach the user; no answer → the broker's timeout denies.
   */
  attachFrontDoor(): () => void
  missedRuns(): MissedRunPolicy
  /** False in a process that only manages tasks (one-shot CLI commands): nothing runs at its time there. */
  timed: boolean
  language(): Language
}

/** Why a run started: its time came, it was caught up at start, or someone asked (run now). */
export type ScheduledRunReason = 'scheduled' | 'missed' | 'manual'

export interface ScheduledRunStart {
  taskId: string
  runId: string | null
  conversationId: string | null
  /** Resolves with how the run ended. */
  done: Promise<ScheduledRunStatus>
}

/**
 * Runs scheduled tasks while DeskClaw runs (docs/tools.md, "Schedules"): one timer armed for the
 * earliest next run. Each run is a new conversation; it is audited, and its end, failure or wait
 * for an approval is a notification. Missed runs (the app was closed at the time) are caught up
 * once or skipped, by the `scheduleMissedRuns` setting.
 */
export class Scheduler implements AppService {
  readonly name = 'scheduler'
  private cancelTimer: (() => void) | null = null
  private readonly active = new Map<string, ScheduledTask>() // runId → task
  private readonly running = new Set<Promise<unknown>>()
  private releaseFrontDoor: (() => void) | null = null
  private stopListening: (() => void) | null = null
  private stopped = false

  constructor(private readonly deps: SchedulerDeps) {}

  started(): void {
    // Only the process that runs tasks at their times may call a `running` one interrupted.
    if (!this.deps.timed) return
    const recovered = this.deps.schedules.recoverInterrupted()
    if (recovered > 0) this.deps.store.audit({ kind: 'schedule_runs_interrupted', actor: 'scheduler', data: { count: recovered } })
    this.stopListening = this.deps.onAgentEvent((event) => this.heard(event))
    this.tick()
  }

  list(): ScheduledTask[] {
    return this.deps.schedules.list()
  }

  add(input: ScheduledTaskInput): ScheduledTask {
    const task = ScheduledTaskInputSchema.parse(input)
    checkSchedule(task.schedule)
    const now = this.deps.clock.now()
    const created = this.deps.schedules.add({ ...task, nextRunAt: task.enabled ? nextRunTime(task.schedule, now) : null }, now)
    this.deps.store.audit({ kind: 'schedule_added', actor: 'user', data: summary(created) })
    this.arm()
    return created
  }

  update(id: string, change: Partial<ScheduledTaskInput>): ScheduledTask {
    const current = this.get(id)
    const next = ScheduledTaskInputSchema.parse({ ...current, ...change })
    checkSchedule(next.schedule)
    const now = this.deps.clock.now()
    const patch: ScheduledTaskChange = { ...next, nextRunAt: next.enabled ? nextRunTime(next.schedule, now) : null }
    const updated = this.deps.schedules.update(id, patch, now)
    this.deps.store.audit({ kind: 'schedule_changed', actor: 'user', data: summary(updated) })
    this.arm()
    return updated
  }

  remove(id: string): boolean {
    const task = this.deps.schedules.get(id)
    const removed = this.deps.schedules.remove(id)
    if (task && removed) this.deps.store.audit({ kind: 'schedule_removed', actor: 'user', data: summary(task) })
    this.arm()
    return removed
  }

  /** Runs a task now, whatever its schedule (Run now; `deskclaw schedule run-now`). */
  runNow(id: string): ScheduledRunStart {
    return this.start(this.get(id), 'manual')
  }

  /** Runs what is due, skips or catches up what was missed, and arms the timer for the next. */
  tick(): void {
    if (this.stopped || !this.deps.timed) return
    const now = this.deps.clock.now()
    for (const task of this.deps.schedules.due(now)) {
      const late = now - (task.nextRunAt ?? now)
      // The next time is set before the run starts, so a run that outlasts its period is not started twice.
      this.deps.schedules.update(task.id, { nextRunAt: nextRunTime(task.schedule, now), ...(task.schedule.kind === 'once' ? { enabled: false } : {}) }, now)
      const missed = late > MISSED_AFTER_MS
      if (missed && this.deps.missedRuns() === 'skip') {
        this.deps.store.audit({ kind: 'schedule_run_skipped', actor: 'scheduler', data: { ...summary(task), missedAt: task.nextRunAt } })
        continue
      }
      if ([...this.active.values()].some((running) => running.id === task.id)) {
        this.deps.store.audit({ kind: 'schedule_run_skipped', actor: 'scheduler', data: { ...summary(task), missedAt: task.nextRunAt, why: 'still running' } })
        continue
      }
      this.start(task, missed ? 'missed' : 'scheduled')
    }
    this.arm()
  }

  /** Resolves when every scheduled run started so far has ended (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running])
  }

  async shutdown(): Promise<void> {
    this.stopped = true
    this.cancelTimer?.()
    this.stopListening?.()
    // Stopped before the agent service: the runs are cancelled here, and their ends still recorded.
    for (const runId of this.active.keys()) this.deps.cancel(runId)
    await this.idle()
    this.releaseFrontDoor?.()
  }

  private get(id: string): ScheduledTask {
    const task = this.deps.schedules.get(id)
    if (!task) throw new AppError('NOT_FOUND', `Scheduled task ${id} does not exist.`, { key: 'errors.schedule.notFound', params: { id } })
    return task
  }

  private arm(): void {
    this.cancelTimer?.()
    this.cancelTimer = null
    if (this.stopped || !this.deps.timed) return
    const next = this.deps.schedules.nextDue()
    if (next === null) return
    const wait = Math.min(Math.max(0, next - this.deps.clock.now()), MAX_WAIT_MS)
    this.cancelTimer = this.deps.clock.setTimer(wait, () => this.tick())
  }

  private start(task: ScheduledTask, reason: ScheduledRunReason): ScheduledRunStart {
    const { deps } = this
    const at = deps.clock.now()
    let conversationId: string | null = null
    let runId: string | null = null
    try {
      conversationId = deps.store.createConversation(task.name, task.workspace).id
      if (this.active.size === 0) this.releaseFrontDoor = deps.attachFrontDoor()
      runId = deps.send(conversationId, task.prompt, { autonomy: task.autonomy }).runId
    } catch (error) {
      // Not configured, a workspace that cannot be made: the task failed to start, and the user hears of it.
      if (this.active.size === 0) this.dropFrontDoor()
      const message = errorMessage(error)
      deps.schedules.recordRun(task.id, { runId: null, conversationId, status: 'failed', at, error: message })
      deps.store.audit({ kind: 'schedule_run_failed', actor: 'scheduler', conversationId, data: { ...summary(task), reason, error: message } })
      this.notify(task, 'run_failed', conversationId ?? undefined, undefined, message)
      return { taskId: task.id, runId: null, conversationId, done: Promise.resolve('failed') }
    }
    this.active.set(runId, task)
    deps.schedules.recordRun(task.id, { runId, conversationId, status: 'running', at })
    deps.store.audit({ kind: 'schedule_run_started', actor: 'scheduler', conversationId, runId, data: { ...summary(task), reason } })
    const done = this.finish(task, conversationId, runId)
    this.running.add(done)
    void done.finally(() => this.running.delete(done))
    return { taskId: task.id, runId, conversationId, done }
  }

  private async finish(task: ScheduledTask, conversationId: string, runId: string): Promise<ScheduledRunStatus> {
    const { deps } = this
    let status: ScheduledRunStatus
    let error: string | null = null
    try {
      const outcome = await deps.wait(runId)
      status = outcome.status === 'failed' ? 'failed' : outcome.stopReason === 'cancelled' ? 'cancelled' : 'completed'
      if (outcome.status === 'failed') error = outcome.error.message
    } catch (caught) {
      status = 'failed'
      error = errorMessage(caught)
    } finally {
      this.active.delete(runId)
      if (this.active.size === 0) this.dropFrontDoor()
    }
    deps.schedules.recordRunEnd(task.id, runId, status, error)
    deps.store.audit({ kind: 'schedule_run_ended', actor: 'scheduler', conversationId, runId, data: { ...summary(task), status, ...(error ? { error } : {}) } })
    if (status !== 'cancelled') this.notify(task, status === 'failed' ? 'run_failed' : 'run_finished', conversationId, runId, error ?? undefined)
    return status
  }

  private heard(event: AgentEvent): void {
    if (event.type !== 'approval_requested') return
    const task = this.active.get(event.runId)
    if (task) this.notify(task, 'approval_waiting', event.conversationId, event.runId)
  }

  private notify(task: ScheduledTask, reason: 'run_finished' | 'run_failed' | 'approval_waiting', conversationId?: string, runId?: string, error?: string): void {
    const notice = scheduleNotice(reason, task.name, this.deps.language(), error)
    try {
      this.deps.notifications.notify({ reason, ...notice, ...(conversationId ? { conversationId } : {}), ...(runId ? { runId } : {}) })
    } catch {
      // A notice that cannot be shown must not end the run's bookkeeping.
    }
  }

  private dropFrontDoor(): void {
    this.releaseFrontDoor?.()
    this.releaseFrontDoor = null
  }
}

function summary(task: ScheduledTask): Record<string, unknown> {
  return { taskId: task.id, name: task.name, schedule: task.schedule, autonomy: task.autonomy, workspace: task.workspace }
}
