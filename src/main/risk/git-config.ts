import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Keys in a repository's own config that make "read-only" git commands run programs: with
 * `core.fsmonitor = touch x`, plain `git status` runs it (found by the execution oracle). The
 * user's global config is theirs; a repository's can be written by the project or the agent.
 */
const CODE_RUNNING_KEY =
  /^\s*(fsmonitor|external|textconv|pager|editor|sshcommand|askpass|hookspath|gitproxy|uploadpack|receivepack|helper|clean|smudge|process|command|tool|cmd)\s*=/im
const SECTION_WITH_CODE = /^\s*\[\s*(alias|filter|diff|merge|credential|core|pager|difftool|mergetool|uploadpack|protocol|fetch|include|includeif)\b/im

const cache = new Map<string, { mtimeMs: number; risk: string | null }>()

/** Why the repository at `workspace` configures git to run programs, or null (also when there is no repository). */
export function gitConfigRisk(workspace: string): string | null {
  const path = join(workspace, '.git', 'config')
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
