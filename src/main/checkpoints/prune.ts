import fs from 'node:fs'
import path from 'node:path'
import { runGit, type GitTarget } from './git-plumbing'

export interface PruneLimits {
  /** Checkpoints older than this go. */
  maxAgeMs: number
  /** Then the oldest ones, until a repository takes at most this much disk. */
  maxBytes: number
}

/**
 * Drops a shadow repository's checkpoints older than `maxAgeMs`, then the oldest ones until it is
 * at most `maxBytes` on disk, and deletes the objects nothing refers to any more
 * (docs/checkpoints.md, "Pruning"). Needs only the repository, not its workspace (which may be
 * gone). Returns how many checkpoints were dropped.
 */
export async function pruneRepository(gitDir: string, limits: PruneLimits, now = Date.now()): Promise<number> {
  if (!fs.existsSync(path.join(gitDir, 'HEAD'))) return 0
  const target: GitTarget = { gitDir, workTree: gitDir }
  const listed = (await runGit(target, ['for-each-ref', '--sort=committerdate', '--format=%(objectname) %(committerdate:unix)', 'refs/checkpoints/'])).stdout
    .toString()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, seconds] = line.split(' ')
      return { id: id!, at: Number(seconds) * 1000 }
    })
  const drop = new Set(listed.filter((ref) => now - ref.at > limits.maxAgeMs).map((ref) => ref.id))
  let bytes = await objectBytes(target)
  // Oldest first, by each checkpoint's share of the size: an estimate, enough to stop near the limit.
  const kept = listed.filter((ref) => !drop.has(ref.id))
  const share = kept.length > 0 ? bytes / kept.length : 0
  for (const ref of kept) {
    if (bytes <= limits.maxBytes) break
    drop.add(ref.id)
    bytes -= share
  }
  if (drop.size === 0) return 0
  await runGit(target, ['update-ref', '--stdin'], { input: [...drop].map((id) => `delete refs/checkpoints/${id}\n`).join(''), allowFailure: true })
  await runGit(target, ['prune', '--expire=now'])
  return drop.size
}

/** Prunes every shadow repository in the data folder; one failing is said and skipped. */
export async function pruneAllRepositories(dataFolder: string, limits: PruneLimits, now = Date.now()): Promise<number> {
  const folder = path.join(dataFolder, 'checkpoints')
  if (!fs.existsSync(folder)) return 0
  let dropped = 0
  for (const name of fs.readdirSync(folder)) {
    if (!name.endsWith('.git')) continue
    try {
      dropped += await pruneRepository(path.join(folder, name), limits, now)
    } catch (error) {
      console.warn(`[deskclaw] could not prune checkpoints in ${name}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return dropped
}

/** Bytes the repository's objects take on disk (loose and packed). */
export async function objectBytes(target: GitTarget): Promise<number> {
  const output = (await runGit(target, ['count-objects', '-v'])).stdout.toString()
  const kib = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(output)?.[1] ?? 0)
  return (kib('size') + kib('size-pack')) * 1024
}
