import path from 'node:path'
import { AppError, newId, type ChangedFile, type FileSide } from '../../shared'
import type { Runtime } from '../runtime'
import type { ConversationStore } from '../store'
import { toChangedFile, type FileChange } from './changes'
import { fileSide } from './file-sides'
import type { ConflictChoice, RewindPlan } from './rewind'
import { applyStaged, discardStaged, listStaged, planApplyStaged, reviewStaged, stageWorkspace, type StagedCopy } from './staging'
import type { CheckpointService } from './workspace-checkpoints'

/** Runtimes that confine a command's writes to the folder they mount: the copy, never the real workspace. */
const CONFINING_RUNTIMES = new Set(['bwrap', 'docker', 'sandbox-exec'])

export interface StagedReview {
  runId: string
  conversationId: string
  workspace: string
  files: ChangedFile[]
  /** Real files changed since the run began that the run changed too: kept unless chosen otherwise. */
  conflicts: string[]
}

export interface StagedApplied {
  applied: string[]
  kept: string[]
  failed: Array<{ path: string; reason: string }>
}

interface Held extends StagedCopy {
  conversationId: string
}

/**
 * Apply-at-end runs (docs/checkpoints.md, "Apply at the end"): the run works in a copy of the
 * workspace under a sandboxing runtime; the real workspace is untouched until the user reviews the
 * run's one diff and applies it (all or some files) or discards it. Copies survive a restart.
 */
export class StagedRuns {
  private readonly stagingRoot: string

  constructor(
    private readonly deps: {
      dataFolder: string
      store: ConversationStore
      checkpoints: CheckpointService
      runtime: Runtime
      workspaceOf(conversationId: string): string
    }
  ) {
    this.stagingRoot = path.join(deps.dataFolder, 'staging')
  }

  /**
   * Copies the workspace and starts the run in the copy (`send` starts it there under the run id
   * given); refused under a runtime that could write the real workspace.
   */
  async start<T>(conversationId: string, send: (workspace: string, runId: string) => T): Promise<T> {
    await this.deps.runtime.ready?.()
    if (!CONFINING_RUNTIMES.has(this.deps.runtime.name)) {
      throw new AppError('VALIDATION_FAILED', `Apply at the end needs the bubblewrap or Docker runtime; commands now run with "${this.deps.runtime.name}", which could write the real workspace.`, {
        key: 'errors.staged.needsSandbox',
        params: { runtime: this.deps.runtime.name }
      })
    }
    if (!this.deps.store.getConversation(conversationId)) throw new AppError('NOT_FOUND', `Conversation ${conversationId} does not exist.`, { key: 'errors.conversation.notFound' })
    const workspace = this.deps.workspaceOf(conversationId)
    const runId = newId('run')
    const checkpoints = this.deps.checkpoints.forWorkspace(workspace)
    const staged = await stageWorkspace(checkpoints.repository(), this.stagingRoot, runId, { conversationId })
    // The run's own step checkpoints go to the same repository, recording the copy.
    this.deps.checkpoints.useView(staged.folder, checkpoints.repository().viewOf(staged.folder, runId))
    try {
      return send(staged.folder, runId)
    } catch (error) {
      discardStaged(this.stagingRoot, staged, checkpoints.repository())
      throw error
    }
  }

  /** The runs whose copies wait for review. */
  pending(): Array<{ runId: string; conversationId: string; workspace: string }> {
    return this.all().map(({ runId, conversationId, workspace }) => ({ runId, conversationId, workspace }))
  }

  async review(runId: string): Promise<StagedReview> {
    const held = this.find(runId)
    const { plan, files } = await this.plan(held)
    return {
      runId,
      conversationId: held.conversationId,
      workspace: held.workspace,
      files: files.map(toChangedFile),
      conflicts: plan.conflicts.map((conflict) => conflict.path)
    }
  }

  /** Both sides of one file of the run's diff: the real workspace when the run began, and the copy now (the review's diff view). */
  async fileDiff(runId: string, file: string): Promise<{ before: FileSide; after: FileSide }> {
    const held = this.find(runId)
    const repo = this.deps.checkpoints.forWorkspace(held.workspace).repository()
    const reviewed = await reviewStaged(repo, held)
    const [before, after] = await Promise.all([fileSide(repo.target, held.baseline, file), fileSide(repo.target, reviewed.checkpoint, file)])
    return { before, after }
  }

  /** Writes the run's files (all, or `paths`) into the real workspace, then removes the copy. */
  async apply(runId: string, options: { paths?: string[]; choices?: Record<string, ConflictChoice> } = {}): Promise<StagedApplied> {
    const held = this.find(runId)
    const repo = this.deps.checkpoints.forWorkspace(held.workspace).repository()
    const { plan, files } = await this.plan(held)
    const known = new Set(files.map((file) => file.path))
    const unknown = (options.paths ?? []).filter((file) => !known.has(file))
    if (unknown.length > 0) throw new AppError('VALIDATION_FAILED', `The run did not change ${unknown.join(', ')}.`)
    const only = options.paths ? new Set(options.paths) : undefined
    const result = await applyStaged(repo, plan, { ...(only ? { only } : {}), choices: new Map(Object.entries(options.choices ?? {})) })
    discardStaged(this.stagingRoot, held, repo)
    this.deps.store.audit({
      kind: 'staged.apply',
      conversationId: held.conversationId,
      runId,
      actor: 'user',
      data: { workspace: held.workspace, applied: result.restored, kept: result.kept, failed: result.failed, undo: { to: plan.current.id, expected: result.after.id } }
    })
    return { applied: result.restored, kept: result.kept, failed: result.failed }
  }

  /** Removes the copy: the real workspace never saw the run. */
  discard(runId: string): void {
    const held = this.find(runId)
    discardStaged(this.stagingRoot, held, this.deps.checkpoints.forWorkspace(held.workspace).repository())
    this.deps.store.audit({ kind: 'staged.discard', conversationId: held.conversationId, runId, actor: 'user', data: { workspace: held.workspace } })
  }

  private async plan(held: Held): Promise<{ plan: RewindPlan; files: FileChange[] }> {
    const repo = this.deps.checkpoints.forWorkspace(held.workspace).repository()
    const reviewed = await reviewStaged(repo, held)
    const plan = await planApplyStaged(repo, held, reviewed.checkpoint)
    return { plan, files: reviewed.files }
  }

  private all(): Held[] {
    return listStaged(this.stagingRoot).filter((staged): staged is Held => typeof staged.conversationId === 'string')
  }

  private find(runId: string): Held {
    const held = this.all().find((staged) => staged.runId === runId)
    if (!held) throw new AppError('NOT_FOUND', 'This run has no copy waiting for review (applied or discarded already).', { key: 'errors.staged.notFound' })
    return held
  }
}
