import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { runGit, splitNul, type GitTarget } from './git-plumbing'
import { pruneRepository, type PruneLimits } from './prune'

/** What a checkpoint leaves out (docs/checkpoints.md, "What a checkpoint records"). */
export interface CheckpointLimits {
  /** Files larger than this are left out with a note. */
  maxFileBytes: number
}

export const DEFAULT_CHECKPOINT_LIMITS: CheckpointLimits = { maxFileBytes: 50 * 1024 * 1024 }

export interface SkippedFile {
  path: string
  reason: 'too-large' | 'unreadable'
  bytes?: number
}

export interface Checkpoint {
  /** The commit in the shadow repository. */
  id: string
  tree: string
  /** Files this checkpoint could not record (they cannot be undone). */
  skipped: SkippedFile[]
}

/** The empty tree's id (git's well-known constant for SHA-1 repositories). */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbad4904'

/**
 * The workspace's history as DeskClaw sees it, in a repository of its own in the data folder
 * (docs/checkpoints.md). The user's own `.git` — index, stash, hooks, config — is never read or
 * written: git runs with GIT_DIR set to the shadow repository and the workspace as its work tree.
 * Files the workspace's `.gitignore` ignores are not recorded, nor are nested repositories' `.git`.
 */
export class ShadowRepository {
  readonly target: GitTarget
  private ready: Promise<void> | undefined
  /** One operation at a time: git's index lock would refuse a second one anyway. */
  private queue: Promise<unknown> = Promise.resolve()
  /** Commit → tree, for the checkpoints this process made or looked at. */
  private readonly trees = new Map<string, string>()

  constructor(
    readonly workspace: string,
    dataFolder: string,
    private readonly limits: CheckpointLimits = DEFAULT_CHECKPOINT_LIMITS,
    /** Another work tree recorded in this workspace's repository (a staged run's copy), with its own index. */
    view?: { workTree: string; indexName: string }
  ) {
    const real = fs.realpathSync(workspace)
    const key = createHash('sha256').update(real).digest('hex').slice(0, 16)
    const gitDir = path.join(dataFolder, 'checkpoints', `${key}.git`)
    this.target = view
      ? { gitDir, workTree: fs.realpathSync(view.workTree), indexFile: path.join(gitDir, `index-${view.indexName}`) }
      : { gitDir, workTree: real }
  }

  /** The same repository recording another folder (a staged run's copy of the workspace). */
  viewOf(workTree: string, indexName: string): ShadowRepository {
    return new ShadowRepository(this.workspace, path.dirname(path.dirname(this.target.gitDir)), this.limits, { workTree, indexName })
  }

  /** Records the workspace as it is now; `parent` links checkpoints of one conversation into a chain. */
  snapshot(message: string, parent?: string): Promise<Checkpoint> {
    return this.serial(async () => {
      await this.ensureReady()
      const skipped = await this.excludeLargeFiles()
      const added = await runGit(this.target, ['add', '--all', '--ignore-errors', '--', '.'], { allowFailure: true })
      if (added.code !== 0) skipped.push(...unreadableFiles(added.stderr))
      const tree = (await runGit(this.target, ['write-tree'])).stdout.toString().trim()
      // Nothing changed since the parent: it is this checkpoint too (no empty commits in the chain).
      if (parent && (await this.treeOfCommit(parent)) === tree) return { id: parent, tree, skipped }
      const parentArgs = parent ? ['-p', parent] : []
      const id = (await runGit(this.target, ['commit-tree', tree, ...parentArgs, '-m', message])).stdout
        .toString()
        .trim()
      // A ref keeps the commit from being pruned; pruning deletes refs (prune()).
      await runGit(this.target, ['update-ref', `refs/checkpoints/${id}`, id])
      this.trees.set(id, tree)
      return { id, tree, skipped }
    })
  }

  /** The tree a checkpoint recorded. */
  async treeOf(checkpoint: string): Promise<string> {
    await this.ensureReady()
    return this.treeOfCommit(checkpoint)
  }

  private async treeOfCommit(commit: string): Promise<string> {
    let tree = this.trees.get(commit)
    if (!tree) {
      tree = (await runGit(this.target, ['rev-parse', `${commit}^{tree}`])).stdout.toString().trim()
      this.trees.set(commit, tree)
    }
    return tree
  }

  /** Forgets these checkpoints (a deleted conversation's); their objects go at the next prune. */
  dropCheckpoints(ids: readonly string[]): Promise<void> {
    return this.serial(async () => {
      if (ids.length === 0 || !fs.existsSync(path.join(this.target.gitDir, 'HEAD'))) return
      const commands = [...new Set(ids)].filter((id) => /^[0-9a-f]{40}$/.test(id)).map((id) => `delete refs/checkpoints/${id}\n`)
      await runGit(this.target, ['update-ref', '--stdin'], { input: commands.join(''), allowFailure: true })
    })
  }

  /** Prunes by age and size (docs/checkpoints.md, "Pruning"); how many checkpoints were dropped. */
  prune(limits: PruneLimits, now = Date.now()): Promise<number> {
    return this.serial(() => pruneRepository(this.target.gitDir, limits, now))
  }

  /** Runs git operations one after another, whatever the callers do. */
  serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work)
    this.queue = next.catch(() => undefined)
    return next
  }

  private ensureReady(): Promise<void> {
    this.ready ??= this.initialise()
    return this.ready
  }

  private async initialise(): Promise<void> {
    // Configured once, when made: a second view of the repository must not race for its config lock.
    if (fs.existsSync(path.join(this.target.gitDir, 'HEAD'))) return
    fs.mkdirSync(path.dirname(this.target.gitDir), { recursive: true })
    // Made under a temporary name and renamed, so a half-made repository is never taken for one.
    const making = `${this.target.gitDir}.making-${process.pid}`
    fs.rmSync(making, { recursive: true, force: true })
    const target = { ...this.target, gitDir: making }
    await runGit(target, ['init', '--quiet'])
    const settings: Array<[string, string]> = [
      ['core.autocrlf', 'false'],
      ['core.safecrlf', 'false'],
      ['core.symlinks', 'true'],
      ['core.filemode', 'true'],
      ['core.hooksPath', '/dev/null'],
      ['core.fsmonitor', 'false'],
      ['core.untrackedCache', 'true'],
      ['core.preloadIndex', 'true'],
      ['core.quotePath', 'false'],
      // Fast before small: checkpoints are local and pruned (docs/benchmarks.md, "Checkpoints").
      ['core.compression', '1'],
      ['core.bigFileThreshold', '1m'],
      ['gc.auto', '0'],
      ['advice.addEmbeddedRepo', 'false'],
      ['advice.addIgnoredFile', 'false']
    ]
    for (const [key, value] of settings) await runGit(target, ['config', key, value])
    try {
      fs.renameSync(making, this.target.gitDir)
    } catch (error) {
      // Another process made it first: use theirs.
      fs.rmSync(making, { recursive: true, force: true })
      if (!fs.existsSync(path.join(this.target.gitDir, 'HEAD'))) throw error
    }
  }

  /**
   * Lists new and changed files and leaves out those above the size limit: written to the
   * repository's own exclude file (never the workspace's `.gitignore`), and dropped from the index.
   */
  private async excludeLargeFiles(): Promise<SkippedFile[]> {
    const excludeFile = path.join(this.target.gitDir, 'info', 'exclude')
    const status = await runGit(this.target, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames'])
    const skipped: SkippedFile[] = []
    const candidates = splitNul(status.stdout)
      .filter((entry) => entry.length > 3 && entry[1] !== 'D' && entry[0] !== 'D')
      .map((entry) => entry.slice(3))
    for (const relative of candidates) {
      let bytes: number
      try {
        const stat = fs.lstatSync(path.join(this.target.workTree, relative))
        if (!stat.isFile()) continue
        bytes = stat.size
      } catch {
        continue
      }
      if (bytes > this.limits.maxFileBytes) skipped.push({ path: relative, reason: 'too-large', bytes })
    }
    if (skipped.length > 0) {
      fs.mkdirSync(path.dirname(excludeFile), { recursive: true })
      const existing = fs.existsSync(excludeFile) ? fs.readFileSync(excludeFile, 'utf8') : ''
      const known = new Set(existing.split('\n'))
      const lines = skipped.map((file) => `/${escapeExcludePattern(file.path)}`).filter((line) => !known.has(line))
      if (lines.length > 0) fs.appendFileSync(excludeFile, `${existing.endsWith('\n') || existing === '' ? '' : '\n'}${lines.join('\n')}\n`)
      await runGit(this.target, ['rm', '--cached', '--quiet', '--ignore-unmatch', '--', ...skipped.map((file) => file.path)])
    }
    return skipped
  }
}

function escapeExcludePattern(relative: string): string {
  return relative.replace(/[\\*?[\]!# ]/g, (char) => `\\${char}`)
}

function unreadableFiles(stderr: string): SkippedFile[] {
  const files: SkippedFile[] = []
  for (const line of stderr.split('\n')) {
    const match = /^(?:error|warning): (?:open\("(.+)"\)|unable to index file '(.+)')/.exec(line)
    const file = match?.[1] ?? match?.[2]
    if (file) files.push({ path: file, reason: 'unreadable' })
  }
  return files
}
