import type { StepChanges } from '../../shared'
import { changesBetween, describeChangesForModel } from './changes'
import { GitMissingError } from './git-plumbing'
import { ShadowRepository, type CheckpointLimits } from './shadow-repository'

/** What a tool call's changes look like to the runner: for the event, and one line for the model. */
export interface RecordedStep {
  changes: StepChanges
  /** "2 files changed: a.ts (+3 −1), b.png (binary, 1204 bytes)." */
  forModel: string
}

/**
 * The two moments the agent records a workspace around a call that can write (docs/checkpoints.md):
 * `before` just before it runs, `after` when it ended. Failures (no git, a full disk) never stop
 * the call: they return undefined and are said once in the log.
 */
export interface StepCheckpoints {
  before(conversationId: string): Promise<string | undefined>
  after(conversationId: string, before: string): Promise<RecordedStep | undefined>
}

/** The shadow repositories of every workspace, kept in the data folder. */
export class CheckpointService {
  private readonly workspaces = new Map<string, WorkspaceCheckpoints>()

  constructor(
    private readonly dataFolder: string,
    private readonly limits: () => CheckpointLimits
  ) {}

  /** Records `folder` (a staged run's copy) in another workspace's repository, through this view. */
  useView(folder: string, view: ShadowRepository): void {
    this.workspaces.set(folder, new WorkspaceCheckpoints(view))
  }

  forWorkspace(workspace: string): WorkspaceCheckpoints {
    let checkpoints = this.workspaces.get(workspace)
    if (!checkpoints) {
      checkpoints = new WorkspaceCheckpoints(new ShadowRepository(workspace, this.dataFolder, this.limits()))
      this.workspaces.set(workspace, checkpoints)
    }
    return checkpoints
  }
}

/** One workspace's repository, and the newest checkpoint per conversation (the end of its chain). */
export class WorkspaceCheckpoints implements StepCheckpoints {
  private readonly newest = new Map<string, string>()
  private warned = false

  constructor(private readonly repo: ShadowRepository) {}

  repository(): ShadowRepository {
    return this.repo
  }

  async before(conversationId: string): Promise<string | undefined> {
    try {
      const checkpoint = await this.repository().snapshot(`before a call in ${conversationId}`, this.newest.get(conversationId))
      this.newest.set(conversationId, checkpoint.id)
      return checkpoint.id
    } catch (error) {
      this.warnOnce(error)
      return undefined
    }
  }

  async after(conversationId: string, before: string): Promise<RecordedStep | undefined> {
    try {
      const repo = this.repository()
      const checkpoint = await repo.snapshot(`after a call in ${conversationId}`, before)
      this.newest.set(conversationId, checkpoint.id)
      const files = await changesBetween(repo.target, before, checkpoint.id)
      const changes: StepChanges = {
        workspace: repo.target.workTree,
        before,
        after: checkpoint.id,
        files: files.length,
        added: files.reduce((sum, file) => sum + file.added, 0),
        removed: files.reduce((sum, file) => sum + file.removed, 0),
        ...(checkpoint.skipped.length > 0 ? { skipped: checkpoint.skipped } : {})
      }
      return { changes, forModel: describeChangesForModel(files) }
    } catch (error) {
      this.warnOnce(error)
      return undefined
    }
  }

  private warnOnce(error: unknown): void {
    if (this.warned) return
    this.warned = true
    const why = error instanceof GitMissingError ? 'git is not installed' : error instanceof Error ? error.message : String(error)
    console.warn(`[deskclaw] checkpoints are off for ${this.repo.workspace}: ${why}`)
  }
}
