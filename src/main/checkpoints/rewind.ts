import { chmod, lstat, readdir, rmdir, symlink, unlink } from 'node:fs/promises'
import path from 'node:path'
import { confineToWorkspace, isRefusal, writeWorkspaceFile } from '../workspace'
import { changesBetween, ZERO_ID, type FileChange } from './changes'
import { runGit } from './git-plumbing'
import type { Checkpoint, ShadowRepository } from './shadow-repository'

/** A file the undone steps changed that someone else changed since (docs/checkpoints.md, "Conflicts"). */
export interface RewindConflict {
  path: string
  /** What the undone steps did to it (expected ← to). */
  ours: FileChange
  /** What happened to it after the last checkpoint (expected → now). */
  theirs: FileChange
}

/** Exactly what an undo will do, shown before it does it. */
export interface RewindPlan {
  /** The checkpoint the workspace goes back to. */
  to: string
  /** The checkpoint DeskClaw last recorded: what it believes is on disk. */
  expected: string
  /** The workspace as it is now, recorded before anything is touched: redo goes back to it. */
  current: Checkpoint
  /** Each file the undo sets back, as a change from now to the checkpoint. */
  changes: FileChange[]
  conflicts: RewindConflict[]
}

/** What to do with a conflicting file: keep the other edit, or take the checkpoint's version. */
export type ConflictChoice = 'keep-theirs' | 'take-checkpoint'

export interface RewindResult {
  /** The checkpoint recorded after the undo (the state it produced). */
  after: Checkpoint
  /** The checkpoint to go back to for a redo. */
  redo: string
  restored: string[]
  kept: string[]
  /** Files that could not be written (a link swapped in, a hard link, permissions). */
  failed: Array<{ path: string; reason: string }>
}

/**
 * Plans going back from `expected` (the last checkpoint of what is undone) to `to`. The workspace
 * is recorded first, so a file that differs from `expected` is known to have been changed by the
 * user or another program since; such a file is a conflict, never silently overwritten.
 */
export async function planRewind(repo: ShadowRepository, to: string, expected: string): Promise<RewindPlan> {
  const current = await repo.snapshot(`before undo to ${to.slice(0, 12)}`, expected)
  const [undone, since, nowToTarget] = await Promise.all([
    changesBetween(repo.target, to, expected),
    changesBetween(repo.target, expected, current.id),
    changesBetween(repo.target, current.id, to)
  ])
  const undonePaths = new Set(undone.map((change) => change.path))
  const sinceByPath = new Map(since.map((change) => [change.path, change]))
  const conflicts: RewindConflict[] = []
  for (const change of undone) {
    const theirs = sinceByPath.get(change.path)
    if (theirs) conflicts.push({ path: change.path, ours: change, theirs })
  }
  // Only the files the undone steps touched go back; what the user changed elsewhere stays.
  const changes = nowToTarget.filter((change) => undonePaths.has(change.path))
  return { to, expected, current, changes, conflicts }
}

/** Carries out a plan; conflicting files follow `choices` (default: keep theirs). */
export async function applyRewind(
  repo: ShadowRepository,
  plan: RewindPlan,
  choices: ReadonlyMap<string, ConflictChoice> = new Map()
): Promise<RewindResult> {
  const conflicted = new Set(plan.conflicts.map((conflict) => conflict.path))
  const kept: string[] = []
  const apply: FileChange[] = []
  for (const change of plan.changes) {
    if (conflicted.has(change.path) && (choices.get(change.path) ?? 'keep-theirs') === 'keep-theirs') kept.push(change.path)
    else apply.push(change)
  }
  const failed: RewindResult['failed'] = []
  const restored: string[] = []
  const workspace = repo.target.workTree
  // Deletions first: a folder the run created may stand where the checkpoint has a file.
  const ordered = [...apply].sort((a, b) => Number(b.after === ZERO_ID) - Number(a.after === ZERO_ID))
  const blobs = await readBlobs(repo, ordered.filter((change) => change.after !== ZERO_ID && change.afterMode !== '160000').map((change) => change.after))
  for (const change of ordered) {
    const reason = await setFile(workspace, change, blobs)
    if (reason) failed.push({ path: change.path, reason })
    else restored.push(change.path)
  }
  const after = await repo.snapshot(`undo to ${plan.to.slice(0, 12)}`, plan.current.id)
  return { after, redo: plan.current.id, restored, kept, failed }
}

/** Sets one file to its checkpoint version through the workspace's race-free writer; a reason when it could not. */
async function setFile(workspace: string, change: FileChange, blobs: Map<string, Buffer>): Promise<string | undefined> {
  try {
    if (change.after === ZERO_ID) return await removeEntry(workspace, change.path)
    if (change.afterMode === '160000') return 'nested repository'
    const content = blobs.get(change.after)
    if (!content) return 'missing from the checkpoint'
    if (change.afterMode === '120000') {
      const removed = await removeEntry(workspace, change.path)
      if (removed) return removed
      const target = confineToWorkspace(workspace, change.path)
      await symlink(content.toString('utf8'), target.absolute)
      return undefined
    }
    const existing = await lstat(path.join(workspace, change.path)).catch(() => undefined)
    if (existing?.isSymbolicLink() || existing?.isDirectory()) {
      const removed = await removeEntry(workspace, change.path)
      if (removed) return removed
    }
    const wrote = await writeWorkspaceFile(workspace, change.path, content)
    if (isRefusal(wrote)) return wrote.code
    const target = confineToWorkspace(workspace, change.path)
    await chmod(target.absolute, change.afterMode === '100755' ? 0o755 : 0o644)
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/** Removes a file, link or folder tree the run created, only where its folder is inside the workspace. */
async function removeEntry(workspace: string, relative: string): Promise<string | undefined> {
  const parent = confineToWorkspace(workspace, path.dirname(relative) || '.')
  const absolute = path.join(parent.absolute, path.basename(relative))
  const info = await lstat(absolute).catch(() => undefined)
  if (!info) return undefined
  if (info.isDirectory()) return await removeTree(absolute)
  await unlink(absolute)
  await removeEmptyParents(workspace, parent.absolute)
  return undefined
}

async function removeTree(folder: string): Promise<string | undefined> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const child = path.join(folder, entry.name)
    if (entry.isDirectory()) await removeTree(child)
    else await unlink(child)
  }
  await rmdir(folder)
  return undefined
}

/** Folders emptied by the undo go too (git records no empty folders, so none is lost). */
async function removeEmptyParents(workspace: string, folder: string): Promise<void> {
  const root = confineToWorkspace(workspace, '.').absolute
  let current = folder
  while (current !== root && current.startsWith(`${root}${path.sep}`)) {
    const entries = await readdir(current).catch(() => ['?'])
    if (entries.length > 0) return
    await rmdir(current).catch(() => undefined)
    current = path.dirname(current)
  }
}

/** Reads many blobs in one `git cat-file --batch`. */
async function readBlobs(repo: ShadowRepository, ids: readonly string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(ids)]
  const blobs = new Map<string, Buffer>()
  if (unique.length === 0) return blobs
  const output = (await runGit(repo.target, ['cat-file', '--batch'], { input: `${unique.join('\n')}\n` })).stdout
  let offset = 0
  while (offset < output.length) {
    const newline = output.indexOf(0x0a, offset)
    if (newline < 0) break
    const [id, type, size] = output.subarray(offset, newline).toString('utf8').split(' ')
    if (type === 'missing' || size === undefined) {
      offset = newline + 1
      continue
    }
    const start = newline + 1
    const end = start + Number(size)
    blobs.set(id, output.subarray(start, end))
    offset = end + 1
  }
  return blobs
}
