/**
 * Where a command line may be working (docs/risk.md, item 8): the working folder is tracked
 * through the whole line (`cd`, `pushd`, a bare `cd`, `env -C`, `git -C`), and every folder it may
 * be in counts when a path is judged.
 */
import { findNamePattern, normalise, resolveReal } from '../paths'
import type { FindScope, Scope } from './analysis'
import type { Word } from './words'

/** The folder the command is in after the last change seen so far. */
export function currentCwd(scope: Scope): string {
  return scope.cwds.at(-1) ?? scope.ctx.cwd
}

/** `cd`, `cd -P dir`, `pushd dir`, `cd -`: every folder the command may be in afterwards counts for paths. */
export function trackDirectoryChange(scope: Scope, args: Array<string | null>): void {
  const target = args.find((a) => a === null || !/^-[LPe@]+$/.test(a))
  if (target === null) return
  if (target === undefined || target === '-' || target === '~') scope.cwds.push(scope.ctx.home)
  else scope.cwds.push(resolveReal(normalise(target, scope.ctx, currentCwd(scope))))
}

/** Where a find command looks (its start folders) and which names it keeps (-name / -iname). */
export function findScopeOf(scope: Scope, words: Word[]): FindScope {
  const values = words.slice(1).map((w) => w.value)
  const roots: string[] = []
  for (const v of values) {
    if (v === null || v.startsWith('-') || v === '!' || v === '(') break
    roots.push(v)
  }
  const nameAt = values.findIndex((v) => v === '-name' || v === '-iname')
  const pattern = nameAt >= 0 ? values[nameAt + 1] : null
  const cwd = currentCwd(scope)
  return {
    roots: (roots.length > 0 ? roots : ['.']).map((root) => resolveReal(normalise(root, scope.ctx, cwd))),
    ...(pattern ? { name: findNamePattern(pattern, values[nameAt] === '-iname') } : {})
  }
}
