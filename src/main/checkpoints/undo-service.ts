import { AppError, newId, type AgentEvent, type ChangedFile, type FileSide, type StepChanges } from '../../shared'
import type { AppService } from '../lifecycle'
import type { ConversationStore } from '../store'
import { changesBetween, toChangedFile } from './changes'
import { fileSide } from './file-sides'
import { pruneAllRepositories, type PruneLimits } from './prune'
import { applyRewind, planRewind, type ConflictChoice, type RewindPlan } from './rewind'
import { type UndoneStep, undoneSteps } from './undone-steps'
import type { CheckpointService } from './workspace-checkpoints'

/** What to take back (docs/checkpoints.md, "Undo"): one call, one run, or everything since a run began; or an undo itself. */
export type UndoTarget =
  | { kind: 'call'; runId: string; callId: string }
  | { kind: 'run'; runId: string }
  | { kind: 'since-run'; conversationId: string; runId: string }
  | { kind: 'redo'; undoId: string }

export interface UndoConflict {
  path: string
  /** What the undone steps did to the file. */
  ours: ChangedFile
  /** What happened to it afterwards (the user or another program). */
  theirs: ChangedFile
}

/** Exactly what an undo will do, before it does it. */
export interface UndoPreview {
  planId: string
  workspace: string
  /** Each file the undo sets back, as a change from now to the checkpoint. */
  files: ChangedFile[]
  conflicts: UndoConflict[]
  /** Files the checkpoints could not record: the undo cannot bring them back. */
  notRecorded: string[]
}

export interface UndoOutcome {
  /** Names this undo; redo it with `{ kind: 'redo', undoId }`. */
  undoId: string
  restored: string[]
  kept: string[]
  failed: Array<{ path: string; reason: string }>
}

interface HeldPlan {
  plan: RewindPlan
  workspace: string
  conversationId: string | null
  target: UndoTarget
  madeAt: number
}

const FIRST_PRUNE_AFTER_MS = 60_000
const PRUNE_EVERY_MS = 24 * 60 * 60_000

/** Plans older than this are planned again before they are applied. */
const PLAN_LIFETIME_MS = 10 * 60_000

/**
 * Undo and redo over the checkpoints the runs recorded (docs/checkpoints.md). Every undo is
 * previewed first; applying re-plans and refuses when the workspace changed since the preview, so
 * nothing the preview did not show is ever overwritten. Each undo is audited with what redo needs.
 */
export class UndoService implements AppService {
  readonly name = 'undo'
  private readonly plans = new Map<string, HeldPlan>()
  private pruneTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly deps: {
      store: ConversationStore
      checkpoints: CheckpointService
      /** The folder a conversation works in. */
      workspaceOf(conversationId: string): string
      /** Where the shadow repositories are, and how long and large they may grow; absent: never pruned. */
      pruning?: { dataFolder: string; limits(): PruneLimits }
    }
  ) {}

  /** Prunes old checkpoints a minute after start and then daily, in the background. */
  started(): void {
    const pruning = this.deps.pruning
    if (!pruning) return
    const prune = () => {
      void pruneAllRepositories(pruning.dataFolder, pruning.limits()).catch(() => undefined)
      this.pruneTimer = setTimeout(prune, PRUNE_EVERY_MS)
      this.pruneTimer.unref()
    }
    this.pruneTimer = setTimeout(prune, FIRST_PRUNE_AFTER_MS)
    this.pruneTimer.unref()
  }

  shutdown(): void {
    clearTimeout(this.pruneTimer)
  }

  /** The checkpoints a conversation's steps recorded, by workspace (read before it is deleted). */
  checkpointsOf(conversationId: string): Map<string, string[]> {
    const byWorkspace = new Map<string, string[]>()
    for (const call of this.deps.store.getConversation(conversationId)?.toolCalls ?? []) {
      if (!call.changes) continue
      const ids = byWorkspace.get(call.changes.workspace) ?? []
      ids.push(call.changes.before, call.changes.after)
      byWorkspace.set(call.changes.workspace, ids)
    }
    return byWorkspace
  }

  /** Drops checkpoints (a deleted conversation's); their files go at the next prune. */
  async forget(checkpoints: Map<string, string[]>): Promise<void> {
    for (const [workspace, ids] of checkpoints) {
      try {
        await this.deps.checkpoints.forWorkspace(workspace).repository().dropCheckpoints(ids)
      } catch {
        // A workspace that is gone keeps its repository until the next prune by age.
      }
    }
  }

  /** The files that differ between two checkpoints of a conversation's workspace (a step's or a run's diff). */
  async changes(conversationId: string, before: string, after: string): Promise<ChangedFile[]> {
    const repo = this.repositoryOf(conversationId, [before, after])
    return (await changesBetween(repo.target, before, after)).map(toChangedFile)
  }

  /** Both sides of one file for the diff view. */
  async fileDiff(conversationId: string, before: string, after: string, path: string): Promise<{ before: FileSide; after: FileSide }> {
    const repo = this.repositoryOf(conversationId, [before, after])
    const [a, b] = await Promise.all([fileSide(repo.target, before, path), fileSide(repo.target, after, path)])
    return { before: a, after: b }
  }

  /** The repository of the workspace the conversation's steps recorded these checkpoints in. */
  private repositoryOf(conversationId: string, checkpoints: readonly string[]) {
    const detail = this.deps.store.getConversation(conversationId)
    if (!detail) throw notFound()
    const recorded = detail.toolCalls.find((call) => call.changes && (checkpoints.includes(call.changes.before) || checkpoints.includes(call.changes.after)))
    const workspace = recorded?.changes?.workspace ?? this.deps.workspaceOf(conversationId)
    return this.deps.checkpoints.forWorkspace(workspace).repository()
  }

  /** The conversation's steps that stand undone (their cards offer Redo, not a second undo). */
  undone(conversationId: string): UndoneStep[] {
    return undoneSteps(this.deps.store.recentAudit(5000), conversationId)
  }

  async preview(target: UndoTarget): Promise<UndoPreview> {
    if (target.kind === 'call' && this.isUndone(target.runId, target.callId)) {
      throw new AppError('VALIDATION_FAILED', 'This step is already undone. Use Redo to take the undo back.', { key: 'errors.undo.alreadyUndone' })
    }
    const located = this.locate(target)
    const repo = this.deps.checkpoints.forWorkspace(located.workspace).repository()
    const plan = await planRewind(repo, located.to, located.expected)
    const planId = newId('undo')
    this.dropOldPlans()
    this.plans.set(planId, { plan, workspace: located.workspace, conversationId: located.conversationId, target, madeAt: Date.now() })
    return {
      planId,
      workspace: located.workspace,
      files: plan.changes.map(toChangedFile),
      conflicts: plan.conflicts.map((conflict) => ({ path: conflict.path, ours: toChangedFile(conflict.ours), theirs: toChangedFile(conflict.theirs) })),
      notRecorded: located.notRecorded
    }
  }

  /** Carries out a preview; conflicting files follow `choices` (default: keep theirs). */
  async apply(planId: string, choices: Record<string, ConflictChoice> = {}): Promise<UndoOutcome> {
    const held = this.plans.get(planId)
    if (!held) throw new AppError('NOT_FOUND', 'This undo preview has expired. Open it again.', { key: 'errors.undo.expired' })
    this.plans.delete(planId)
    const repo = this.deps.checkpoints.forWorkspace(held.workspace).repository()
    // Planned again now: a file changed since the preview was shown is not overwritten unseen.
    const fresh = await planRewind(repo, held.plan.to, held.plan.expected)
    if (fingerprint(fresh) !== fingerprint(held.plan)) {
      throw new AppError('VALIDATION_FAILED', 'The workspace changed after the preview was shown. Look at the new preview.', { key: 'errors.undo.changedSincePreview' })
    }
    const result = await applyRewind(repo, fresh, new Map(Object.entries(choices)))
    const undoId = result.after.id
    this.deps.store.audit({
      kind: 'checkpoint.undo',
      conversationId: held.conversationId,
      runId: 'runId' in held.target ? held.target.runId : null,
      actor: 'user',
      data: { workspace: held.workspace, target: held.target, to: fresh.to, expected: fresh.expected, after: undoId, redo: result.redo, restored: result.restored, kept: result.kept, failed: result.failed }
    })
    return { undoId, restored: result.restored, kept: result.kept, failed: result.failed }
  }

  /** The checkpoints an undo goes from and to, read from the stored events (and the audit log for redo). */
  private locate(target: UndoTarget): { workspace: string; conversationId: string | null; to: string; expected: string; notRecorded: string[] } {
    if (target.kind === 'redo') {
      const record = this.deps.store.recentAudit(5000).find((entry) => entry.kind === 'checkpoint.undo' && (entry.data as { after?: string }).after === target.undoId)
      const data = record?.data as { workspace?: string; after?: string; redo?: string } | undefined
      if (!data?.workspace || !data.after || !data.redo) throw notFound()
      return { workspace: data.workspace, conversationId: record?.conversationId ?? null, to: data.redo, expected: data.after, notRecorded: [] }
    }
    const runIds = target.kind === 'since-run' ? this.runsSince(target.conversationId, target.runId) : [target.runId]
    const steps: Array<{ conversationId: string; changes: StepChanges }> = []
    for (const runId of runIds) {
      for (const event of this.deps.store.listEvents(runId)) {
        if (!isChangingCompletion(event)) continue
        if (target.kind === 'call' && event.callId !== target.callId) continue
        steps.push({ conversationId: event.conversationId, changes: event.changes })
      }
    }
    if (steps.length === 0) throw notFound()
    const first = steps[0]!
    const last = steps.at(-1)!
    // The workspace the steps changed, as recorded then: settings may point elsewhere now.
    const workspace = first.changes.workspace
    if (steps.some((step) => step.changes.workspace !== workspace)) {
      throw new AppError('VALIDATION_FAILED', 'These steps changed more than one workspace; undo them one run at a time.', { key: 'errors.undo.severalWorkspaces' })
    }
    const notRecorded = [...new Set(steps.flatMap((step) => (step.changes.skipped ?? []).map((file) => file.path)))]
    return { workspace, conversationId: first.conversationId, to: first.changes.before, expected: last.changes.after, notRecorded }
  }

  private isUndone(runId: string, callId: string): boolean {
    return undoneSteps(this.deps.store.recentAudit(5000), this.conversationOfRun(runId) ?? '').some((step) => step.callId === callId)
  }

  private conversationOfRun(runId: string): string | null {
    const event = this.deps.store.listEvents(runId)[0]
    return event?.conversationId ?? null
  }

  /** The conversation's runs from `runId` on, in the order they started. */
  private runsSince(conversationId: string, runId: string): string[] {
    const detail = this.deps.store.getConversation(conversationId)
    if (!detail) throw notFound()
    const runs = [...detail.runs].sort((a, b) => a.startedAt - b.startedAt)
    const start = runs.findIndex((run) => run.id === runId)
    if (start < 0) throw notFound()
    return runs.slice(start).map((run) => run.id)
  }

  private dropOldPlans(): void {
    const now = Date.now()
    for (const [id, held] of this.plans) if (now - held.madeAt > PLAN_LIFETIME_MS) this.plans.delete(id)
  }
}

function isChangingCompletion(event: AgentEvent): event is Extract<AgentEvent, { type: 'tool_call_completed' }> & { changes: StepChanges } {
  return event.type === 'tool_call_completed' && event.changes !== undefined && event.changes.files > 0
}

function notFound(): AppError {
  return new AppError('NOT_FOUND', 'Nothing to undo there: no checkpoint recorded a change.', { key: 'errors.undo.nothing' })
}

/** What a plan would do, as a string: equal fingerprints mean the same files, the same contents, the same conflicts. */
function fingerprint(plan: RewindPlan): string {
  const files = plan.changes.map((change) => `${change.path}:${change.before}:${change.after}`).sort()
  const conflicts = plan.conflicts.map((conflict) => `${conflict.path}:${conflict.theirs.after}`).sort()
  return JSON.stringify([files, conflicts])
}
