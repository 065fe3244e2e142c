import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { HOME_CREDENTIAL_LOCATIONS } from '../secrets/credential-locations'

/**
 * bwrap binds the host read-only at `/`, so without more a command could read anything the
 * user can — `~/.ssh/id_rsa` too, e.g. through a workspace file swapped for a symlink after the
 * command was approved. The user's credential locations that exist are covered inside the
 * sandbox (docs/runtimes.md, "bwrap"): an empty read-only tmpfs over a folder, /dev/null over a
 * file. Both homes count: `$HOME` and the account's home from the password database, in case
 * `$HOME` was pointed elsewhere.
 */
export interface CredentialMaskArgs {
  /** Masks that hold the workspace: placed before its `--bind`, which then shows through. */
  beforeWorkspace: string[]
  /** Masks inside (or beside) the workspace: placed after its `--bind`, so they cover it. */
  afterWorkspace: string[]
}

export function credentialMaskArgs(workspace: string, homes: readonly string[] = homeFolders()): CredentialMaskArgs {
  const masks: CredentialMaskArgs = { beforeWorkspace: [], afterWorkspace: [] }
  const seen = new Set<string>()
  for (const home of homes) {
    for (const relative of HOME_CREDENTIAL_LOCATIONS) {
      const target = existingRealPath(path.join(home, relative))
      if (!target || target === '/' || seen.has(target)) continue
      seen.add(target)
      const args = isDirectory(target) ? ['--tmpfs', target, '--remount-ro', target] : ['--ro-bind', '/dev/null', target]
      if (isWithin(workspace, target)) masks.beforeWorkspace.push(...args)
      else masks.afterWorkspace.push(...args)
    }
  }
  return masks
}

/** `$HOME` and the password database's home, when they exist (absolute paths only). */
export function homeFolders(): string[] {
  const homes = new Set<string>()
  if (process.env.HOME && path.isAbsolute(process.env.HOME)) homes.add(process.env.HOME)
  try {
    homes.add(os.userInfo().homedir)
  } catch {
    // No password-database entry (some containers): $HOME is all there is.
  }
  return [...homes].filter((home) => home !== '/' && path.isAbsolute(home))
}

function existingRealPath(location: string): string | undefined {
  try {
    return fs.realpathSync(location)
  } catch {
    return undefined
  }
}

function isDirectory(target: string): boolean {
  try {
    return fs.statSync(target).isDirectory()
  } catch {
    return false
  }
}

function isWithin(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`)
}
