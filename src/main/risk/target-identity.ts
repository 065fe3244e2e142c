import { lstatSync, type BigIntStats } from 'node:fs'
import { createHash } from 'node:crypto'
import { relative } from 'node:path'
import { isInsideFolder } from '../workspace'

/**
 * What a file-system target of a judgement *is* at one moment (docs/risk.md, "At run time"): its
 * canonical path, the kind of object there, and its device and inode. An approval is bound to
 * these; the runner compares them again just before the call runs, so a folder swapped for a
 * symlink, or a file replaced by a hard link to a secret while the question was open, is seen.
 */
export interface TargetIdentity {
  /** The canonical path the judgement rested on (symlinks of existing parts resolved). */
  path: string
  kind: 'file' | 'folder' | 'symlink' | 'fifo' | 'socket' | 'device' | 'missing' | 'other'
  /** `dev:ino` (decimal, from bigint stats so large inode numbers stay exact); absent when missing. */
  object?: string
  /** Hard links to the object (a regular file with more than one has another name somewhere). */
  links?: number
}

/** The identities of `paths` now, sorted by path (the order of a set of targets carries no meaning). */
export function identifyTargets(paths: Iterable<string>): TargetIdentity[] {
  return [...new Set(paths)].sort().map(identify)
}

function identify(path: string): TargetIdentity {
  let stats: BigIntStats
  try {
    stats = lstatSync(path, { bigint: true })
  } catch {
    return { path, kind: 'missing' }
  }
  return { path, kind: kindOf(stats), object: `${stats.dev}:${stats.ino}`, links: Number(stats.nlink) }
}

function kindOf(stats: BigIntStats): TargetIdentity['kind'] {
  if (stats.isFile()) return 'file'
  if (stats.isDirectory()) return 'folder'
  if (stats.isSymbolicLink()) return 'symlink'
  if (stats.isFIFO()) return 'fifo'
  if (stats.isSocket()) return 'socket'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device'
  return 'other'
}

/** One hash for a set of identities: what an approval is bound to besides what was shown. */
export function identitiesHash(identities: readonly TargetIdentity[]): string {
  const hash = createHash('sha256')
  for (const target of identities) hash.update(`${target.path}\u0000${target.kind}\u0000${target.object ?? ''}\u0000${target.links ?? ''}\n`)
  return hash.digest('hex')
}

/** A hash of the paths alone: a conversation grant is for the same call on the same files, whatever their inode becomes. */
export function targetPathsHash(identities: readonly TargetIdentity[]): string {
  return createHash('sha256').update(identities.map((t) => t.path).join('\u0000')).digest('hex')
}

/**
 * What changed between two sets of identities, one English line each, paths shown relative to the
 * workspace (or `~`): the finding that says why a question is asked again.
 */
export function describeTargetChanges(
  before: readonly TargetIdentity[],
  after: readonly TargetIdentity[],
  places: { workspace: string; home: string }
): string[] {
  const show = (path: string) => shownPath(path, places)
  const old = new Map(before.map((t) => [t.path, t]))
  const now = new Map(after.map((t) => [t.path, t]))
  const lines: string[] = []
  const gone = before.filter((t) => !now.has(t.path))
  const added = after.filter((t) => !old.has(t.path))
  if (gone.length > 0 || added.length > 0) {
    const from = gone.map((t) => show(t.path)).join(', ') || 'nothing'
    const to = added.map((t) => show(t.path)).join(', ') || 'nothing'
    lines.push(`The call now reaches ${to} instead of ${from}.`)
  }
  for (const target of after) {
    const earlier = old.get(target.path)
    if (!earlier || sameObject(earlier, target)) continue
    if (earlier.kind !== target.kind) lines.push(`${show(target.path)} was a ${earlier.kind} and is now a ${target.kind}.`)
    else if (earlier.object !== target.object) lines.push(`${show(target.path)} was replaced by another ${target.kind}.`)
    else lines.push(`${show(target.path)} now has ${target.links} hard links (had ${earlier.links}).`)
  }
  return lines
}

function sameObject(a: TargetIdentity, b: TargetIdentity): boolean {
  return a.kind === b.kind && a.object === b.object && a.links === b.links
}

function shownPath(path: string, { workspace, home }: { workspace: string; home: string }): string {
  if (isInsideFolder(workspace, path)) return relative(workspace, path) || '.'
  if (isInsideFolder(home, path) && path !== home) return `~/${relative(home, path)}`
  return path
}
