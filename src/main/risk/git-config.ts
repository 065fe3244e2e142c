import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { describeSecretSpans, findSecretValues, SECRET_SCAN_BYTES } from '../secrets/secret-content'

/**
 * Keys in a repository's own config that make "read-only" git commands run programs: with
 * `core.fsmonitor = touch x`, plain `git status` runs it (found by the execution oracle). The
 * user's global config is theirs; a repository's can be written by the project or the agent.
 */
const CODE_RUNNING_KEY =
  /^\s*(fsmonitor|external|textconv|pager|editor|sshcommand|askpass|hookspath|gitproxy|uploadpack|receivepack|helper|clean|smudge|process|command|tool|cmd)\s*=/im
const SECTION_WITH_CODE = /^\s*\[\s*(alias|filter|diff|merge|credential|core|pager|difftool|mergetool|uploadpack|protocol|fetch|include|includeif)\b/im

const cache = new Map<string, { mtimeMs: number; risk: string | null }>()

/**
 * The config file of the repository git uses in `dir`, as git finds it: the nearest `.git` folder
 * (or `.git` file naming one) up the tree, or `dir` itself when it is a bare repository
 * (docs/risk.md, item 3: a nested or bare repository has its own config). Null when there is none.
 */
export function repositoryConfigOf(dir: string): string | null {
  let current = dir
  for (let i = 0; i < 64; i++) {
    const dotGit = join(current, '.git')
    // existsSync answers without throwing: most folders on the way up have no .git (exceptions cost).
    if (existsSync(dotGit)) try {
      const stats = statSync(dotGit)
      if (stats.isDirectory()) return join(dotGit, 'config')
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim()
      if (pointer) {
        const gitDir = isAbsolute(pointer) ? pointer : resolve(current, pointer)
        // A worktree's gitdir points into the main repository's .git/worktrees/NAME: its config is two levels up.
        return /\/worktrees\/[^/]+\/?$/.test(gitDir) ? join(gitDir, '..', '..', 'config') : join(gitDir, 'config')
      }
    } catch {
      // no .git here
    }
    if (isBareRepository(current)) return join(current, 'config')
    const parent = dirname(current)
    if (parent === current) return null
    current = parent
  }
  return null
}

function isBareRepository(dir: string): boolean {
  if (!existsSync(join(dir, 'HEAD'))) return false
  try {
    return statSync(join(dir, 'HEAD')).isFile() && statSync(join(dir, 'objects')).isDirectory() && statSync(join(dir, 'config')).isFile()
  } catch {
    return false
  }
}

/** Why the repository git uses in `dir` configures git to run programs, or null (also when there is no repository). */
export function gitConfigRisk(dir: string): string | null {
  const path = repositoryConfigOf(dir)
  if (path === null) return null
  let mtimeMs: number
  try {
    mtimeMs = statSync(path).mtimeMs
  } catch {
    return null
  }
  const cached = cache.get(path)
  if (cached && cached.mtimeMs === mtimeMs) return cached.risk
  let risk: string | null = null
  try {
    const text = readFileSync(path, 'utf8')
    const key = CODE_RUNNING_KEY.exec(text)?.[1]
    if (key && SECTION_WITH_CODE.test(text)) {
      risk = `This repository's .git/config sets "${key}", which makes git run other programs; git commands are not read-only here.`
    } else if (/^\s*\[\s*include/im.test(text) || /=\s*!/m.test(text)) {
      risk = "This repository's .git/config includes other files or defines shell aliases; git commands are not read-only here."
    }
  } catch {
    risk = "This repository's .git/config cannot be read, so git commands cannot be judged read-only."
  }
  cache.set(path, { mtimeMs, risk })
  return risk
}

/**
 * Why the repository git uses in `dir` has a credential in its config (a token in a remote URL,
 * an authorization header), or null (docs/risk.md, "Secrets"): `git remote -v` and `git config
 * --get remote.origin.url` print it.
 */
export function gitConfigSecret(dir: string): string | null {
  const path = repositoryConfigOf(dir)
  if (path === null) return null
  let text: string
  try {
    if (statSync(path).size > SECRET_SCAN_BYTES) return "This repository's .git/config is too large to check for credentials."
    text = readFileSync(path, 'utf8')
  } catch {
    return null
  }
  // A bare repository's config is `DIR/config`: read it as the git config it is.
  const spans = findSecretValues(text, { path: '.git/config' })
  return spans.length > 0 ? `This repository's .git/config ${describeSecretSpans(text, spans)}: git prints it with the remote's URL.` : null
}
