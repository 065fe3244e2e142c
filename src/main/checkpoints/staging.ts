import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { changesBetween, type FileChange } from './changes'
import { applyRewind, planRewind, type ConflictChoice, type RewindPlan, type RewindResult } from './rewind'
import type { ShadowRepository } from './shadow-repository'

/**
 * An apply-at-end run (docs/checkpoints.md, "Apply at the end"): the run works on a copy of the
 * workspace; the real one is untouched until the user reviews the run's one diff and applies it,
 * all of it or some files, or discards it.
 */
export interface StagedCopy {
  runId: string
  /** The real workspace. */
  workspace: string
  /** The copy the run works in. */
  folder: string
  /** The real workspace recorded when the copy was made. */
  baseline: string
  /** The conversation the run belongs to. */
  conversationId?: string
}

/** Where a run's copy and its description are kept (one folder and one JSON file per run). */
export function stagingPaths(stagingRoot: string, runId: string): { folder: string; meta: string } {
  return { folder: path.join(stagingRoot, runId), meta: path.join(stagingRoot, `${runId}.json`) }
}

/** Records the workspace and copies it (copy-on-write where the file system can) for a run to work in. */
export async function stageWorkspace(
  repo: ShadowRepository,
  stagingRoot: string,
  runId: string,
  owner: { conversationId?: string } = {}
): Promise<StagedCopy> {
  if (!/^[A-Za-z0-9_-]+$/.test(runId)) throw new Error(`not a run id: ${runId}`)
  const baseline = await repo.snapshot(`before staged run ${runId}`)
  const { folder, meta } = stagingPaths(stagingRoot, runId)
  fs.mkdirSync(stagingRoot, { recursive: true })
  fs.rmSync(folder, { recursive: true, force: true })
  await copyTree(repo.target.workTree, folder)
  const staged: StagedCopy = { runId, workspace: repo.target.workTree, folder: fs.realpathSync(folder), baseline: baseline.id, ...owner }
  // Written last: a copy without its description is an unfinished one and is cleaned up.
  fs.writeFileSync(meta, JSON.stringify(staged))
  return staged
}

/** The staged runs waiting for review (kept across restarts: nothing the run did is lost). */
export function listStaged(stagingRoot: string): StagedCopy[] {
  if (!fs.existsSync(stagingRoot)) return []
  const staged: StagedCopy[] = []
  for (const name of fs.readdirSync(stagingRoot)) {
    if (!name.endsWith('.json')) continue
    try {
      const value = JSON.parse(fs.readFileSync(path.join(stagingRoot, name), 'utf8')) as StagedCopy
      if (fs.existsSync(value.folder)) staged.push(value)
    } catch {
      // An unreadable description: its copy stays on disk, not offered.
    }
  }
  return staged
}

/** The run's one diff: the copy as it is now against the workspace when the run began. */
export async function reviewStaged(repo: ShadowRepository, staged: StagedCopy): Promise<{ checkpoint: string; files: FileChange[] }> {
  const view = repo.viewOf(staged.folder, staged.runId)
  const checkpoint = await view.snapshot(`staged run ${staged.runId}`, staged.baseline)
  return { checkpoint: checkpoint.id, files: await changesBetween(repo.target, staged.baseline, checkpoint.id) }
}

/**
 * Plans applying the copy's version of the run's files to the real workspace. A real file changed
 * since the run began is a conflict, as in an undo (rewind.ts): kept unless the user says otherwise.
 */
export function planApplyStaged(repo: ShadowRepository, staged: StagedCopy, stagedCheckpoint: string): Promise<RewindPlan> {
  return planRewind(repo, stagedCheckpoint, staged.baseline)
}

/** Writes the reviewed files (all, or `only` these) into the real workspace. */
export function applyStaged(
  repo: ShadowRepository,
  plan: RewindPlan,
  options: { only?: ReadonlySet<string>; choices?: ReadonlyMap<string, ConflictChoice> } = {}
): Promise<RewindResult> {
  const selected = options.only ? { ...plan, changes: plan.changes.filter((change) => options.only!.has(change.path)) } : plan
  return applyRewind(repo, selected, options.choices)
}

/** Removes the copy, its description and its index: no trace of the run is left. */
export function discardStaged(stagingRoot: string, staged: Pick<StagedCopy, 'runId'>, repo?: ShadowRepository): void {
  const { folder, meta } = stagingPaths(stagingRoot, staged.runId)
  fs.rmSync(meta, { force: true })
  fs.rmSync(folder, { recursive: true, force: true })
  if (repo) fs.rmSync(path.join(repo.target.gitDir, `index-${staged.runId}`), { force: true })
}

/** `cp -a --reflink=auto` where it exists (GNU, copy-on-write on btrfs/XFS); Node's copy elsewhere. */
async function copyTree(from: string, to: string): Promise<void> {
  if (process.platform === 'linux') {
    const copied = await new Promise<boolean>((resolve) => {
      const child = spawn('cp', ['-a', '--reflink=auto', '--', from, to], { stdio: 'ignore' })
      child.on('error', () => resolve(false))
      child.on('close', (code) => resolve(code === 0))
    })
    if (copied) return
    fs.rmSync(to, { recursive: true, force: true })
  }
  await fs.promises.cp(from, to, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true, errorOnExist: true, force: false })
}
