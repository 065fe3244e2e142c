import type { ChangedFile } from '../../shared'
import { runGit, splitNul, type GitTarget } from './git-plumbing'

export type ChangeKind = 'added' | 'modified' | 'deleted' | 'type-changed'

/** One file that differs between two checkpoints (docs/checkpoints.md, "A diff per step"). */
export interface FileChange {
  path: string
  kind: ChangeKind
  /** Blob ids; the zero id where the file does not exist on that side. */
  before: string
  after: string
  /** Git modes: 100644, 100755, 120000 (symlink), 160000 (nested repository). */
  beforeMode: string
  afterMode: string
  beforeBytes: number
  afterBytes: number
  binary: boolean
  /** Lines added / removed (0 for binaries). */
  added: number
  removed: number
}

export const ZERO_ID = '0000000000000000000000000000000000000000'

const KINDS: Record<string, ChangeKind> = { A: 'added', M: 'modified', D: 'deleted', T: 'type-changed' }

/** The files that differ between two trees or checkpoints, with sizes and line counts. */
export async function changesBetween(target: GitTarget, from: string, to: string): Promise<FileChange[]> {
  const raw = await runGit(target, ['diff-tree', '-r', '-z', '--no-renames', '--raw', '--no-commit-id', from, to])
  const fields = splitNul(raw.stdout)
  const changes: FileChange[] = []
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const [beforeMode, afterMode, before, after, status] = fields[index].replace(/^:/, '').split(' ')
    changes.push({
      path: fields[index + 1],
      kind: KINDS[status[0]] ?? 'modified',
      before,
      after,
      beforeMode,
      afterMode,
      beforeBytes: 0,
      afterBytes: 0,
      binary: false,
      added: 0,
      removed: 0
    })
  }
  if (changes.length === 0) return changes
  await Promise.all([addSizes(target, changes), addLineCounts(target, from, to, changes)])
  return changes
}

async function addSizes(target: GitTarget, changes: FileChange[]): Promise<void> {
  const ids = [...new Set(changes.flatMap((change) => [change.before, change.after]).filter((id) => id !== ZERO_ID))]
  if (ids.length === 0) return
  const output = await runGit(target, ['cat-file', '--batch-check=%(objectname) %(objectsize)'], {
    input: `${ids.join('\n')}\n`
  })
  const sizes = new Map<string, number>()
  for (const line of output.stdout.toString().split('\n')) {
    const [id, size] = line.split(' ')
    if (id && size && /^\d+$/.test(size)) sizes.set(id, Number(size))
  }
  for (const change of changes) {
    change.beforeBytes = sizes.get(change.before) ?? 0
    change.afterBytes = sizes.get(change.after) ?? 0
  }
}

async function addLineCounts(target: GitTarget, from: string, to: string, changes: FileChange[]): Promise<void> {
  const output = await runGit(target, ['diff-tree', '-r', '-z', '--no-renames', '--numstat', '--no-commit-id', from, to])
  const byPath = new Map(changes.map((change) => [change.path, change]))
  for (const record of splitNul(output.stdout)) {
    const match = /^(-|\d+)\t(-|\d+)\t([\s\S]*)$/.exec(record)
    if (!match) continue
    const change = byPath.get(match[3])
    if (!change) continue
    change.binary = match[1] === '-'
    change.added = change.binary ? 0 : Number(match[1])
    change.removed = change.binary ? 0 : Number(match[2])
  }
}

/** One line for the model: "3 files changed: a.ts (+4 −1), b.png (binary, 12 KB), c.txt (deleted)". */
export function describeChangesForModel(changes: readonly FileChange[]): string {
  if (changes.length === 0) return 'No files changed.'
  const shown = changes.slice(0, 8).map((change) => {
    if (change.kind === 'deleted') return `${change.path} (deleted)`
    const what = change.binary ? `binary, ${change.afterBytes} bytes` : `+${change.added} −${change.removed}`
    return `${change.path} (${change.kind === 'added' ? 'new, ' : ''}${what})`
  })
  const more = changes.length > shown.length ? `, and ${changes.length - shown.length} more` : ''
  return `${changes.length} file${changes.length === 1 ? '' : 's'} changed: ${shown.join(', ')}${more}.`
}

/** The content of one side of a change, for the diff view; undefined when it is larger than `maxBytes`. */
export async function blobContent(target: GitTarget, id: string, maxBytes: number): Promise<Buffer | undefined> {
  if (id === ZERO_ID) return Buffer.alloc(0)
  const size = await runGit(target, ['cat-file', '-s', id])
  if (Number(size.stdout.toString().trim()) > maxBytes) return undefined
  return (await runGit(target, ['cat-file', 'blob', id])).stdout
}

/** A change as the bridge carries it (no blob ids or modes). */
export function toChangedFile(change: FileChange): ChangedFile {
  const { path, kind, beforeBytes, afterBytes, binary, added, removed } = change
  return { path, kind, beforeBytes, afterBytes, binary, added, removed }
}
