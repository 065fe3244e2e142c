import { existsSync, realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { isInsideFolder } from './inside'

/** A path inside the workspace, by canonical real path, and how to show it to the user. */
export interface ConfinedPath {
  /** Canonical absolute path (symlinks of existing parts resolved). */
  absolute: string
  /** Relative to the workspace root, with forward slashes ('.' for the root). */
  display: string
}

export class WorkspaceEscapeError extends Error {
  /** The path as it was asked for (the UI names it in its own language). */
  constructor(readonly requested: string) {
    super(
      `Path "${requested}" is outside the workspace. File tools only work inside the workspace; use a path relative to it.`
    )
    this.name = 'WorkspaceEscapeError'
  }
}

/**
 * Resolves `requested` against the workspace and refuses anything whose canonical real path is
 * outside it. The longest existing prefix is realpath'd, so a symlink anywhere on the way that
 * leads out is caught even when the final file does not exist yet (a write target).
 */
export function confineToWorkspace(workspaceRoot: string, requested: string): ConfinedPath {
  if (requested.includes('\0')) throw new WorkspaceEscapeError(requested.replace(/\0/g, '\\0'))
  const root = realpathSync(workspaceRoot)
  const candidate = isAbsolute(requested) ? resolve(requested) : resolve(root, requested)
  const canonical = canonicalize(candidate)
  if (!isInsideFolder(root, canonical)) throw new WorkspaceEscapeError(requested)
  const rel = relative(root, canonical)
  return { absolute: canonical, display: rel === '' ? '.' : rel.split(sep).join('/') }
}

function canonicalize(path: string): string {
  const missing: string[] = []
  let existing = path
  while (!existsSync(existing)) {
    const parent = dirname(existing)
    if (parent === existing) break
    missing.unshift(basename(existing))
    existing = parent
  }
  return join(realpathSync(existing), ...missing)
}

