/**
 * The path guardian in shell arguments and redirections (docs/risk.md, items 7 and 8, and
 * "Redirections, hard links, special files"): secrets ask even to read, writes outside the
 * workspace are named, reading contents outside it asks unless public — from every folder the
 * command may be in, with globs expanded and symlinks followed.
 */
import { displayPath, expandGlob, isInside, judgePath, looksLikePath, networkPathReason, normalise, resolveReal } from '../paths'
import type { AddFinding, Evidence, Invocation, Redirect, Scope } from './analysis'
import { isBlockDevice } from './critical'
import { isDescriptorWord, REDIRECT_OPERATORS } from './redirects'
import type { ReadKind } from './spec'
import type { Word } from './words'

/** What a path check needs: where the command may be, and where to note what it judged (for --explain). */
export interface PathJudging {
  readonly scope: Scope
  readonly evidence: Evidence
}

/**
 * Secrets ask even to read; writes outside the workspace are named; reading the contents of a
 * file outside the workspace asks unless it is public (docs/risk.md, "Reads outside the
 * workspace"). Every folder a `cd` may have moved to counts, globs are expanded against the file
 * system as the shell would, and symlinks are followed.
 */
export function checkPaths(a: PathJudging, argv: Word[], add: AddFinding, writes: boolean, reads: ReadKind = 'contents', patternFirst = false): void {
  let operandIndex = 0
  let afterDashes = false
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!
    let value = word.value
    if (value === null) continue
    const eq = value.indexOf('=')
    const isOption = !afterDashes && value.startsWith('-') && value !== '-'
    if (value === '--' && !afterDashes) {
      afterDashes = true
      continue
    }
    if (isOption) {
      if (eq < 0) continue
      value = value.slice(eq + 1)
    } else {
      if (eq > 0 && /^[a-z]+=/.test(value)) value = value.slice(eq + 1) // dd of=…
      if (patternFirst && operandIndex++ === 0 && !argv.slice(1, i).some((w) => w.value === '-e' || w.value === '-f' || w.value?.startsWith('--regexp') || w.value?.startsWith('--file'))) continue
    }
    if (!value) continue
    // With a program that reads contents, every operand is a file: `cd ~ && cat notes.txt` reads ~/notes.txt.
    const pathLike = looksLikePath(value) || word.home || word.glob || (reads !== 'none' && !isOption)
    if (!pathLike) continue
    checkOnePath(a, value, word, add, writes, reads)
  }
}

export function checkOnePath(a: PathJudging, value: string, word: Word, add: AddFinding, writes: boolean, reads: ReadKind): void {
  const { ctx } = a.scope
  // A UNC path is another machine, whatever the program does with it (docs/risk.md, item 7).
  const remote = networkPathReason(value)
  if (remote) return add('path.network', `${remote}: reaching it is network access.`, 'ask', word)
  // An absolute path is the same from every folder; a relative one is judged from each.
  const cwds = value.startsWith('/') || value.startsWith('~') || /^[A-Za-z]:[\\/]/.test(value) ? a.scope.cwds.slice(0, 1) : new Set(a.scope.cwds)
  for (const cwd of cwds) {
    const absolute = normalise(value, ctx, cwd)
    const expanded = word.glob ? expandGlob(absolute) : null
    if (word.glob) a.evidence.globs.push({ pattern: absolute, matches: expanded })
    const matches = expanded ?? [absolute]
    for (const match of matches) {
      const { real, finding } = judgePath(match, ctx, { writes, reads })
      a.evidence.targets.add(real)
      if (finding) return add(finding.rule, finding.message, 'ask', word)
    }
  }
}

export function checkRedirects(a: PathJudging, inv: Invocation, add: AddFinding): void {
  for (const r of inv.redirects) checkRedirect(a, r, add)
}

/**
 * A redirection's target is a file the command reads or writes, judged exactly as a file operand
 * (docs/risk.md, "Redirections, hard links, special files"): through the path guardian, from
 * every folder the command may be in. Writes ask as well; an operator the table does not know asks.
 */
function checkRedirect(a: PathJudging, r: Redirect, add: AddFinding): void {
  const { ctx } = a.scope
  const effect = REDIRECT_OPERATORS.get(r.operator)
  if (!effect) return add('shell.redirect-unknown', `The redirection "${r.operator}" is not one the engine knows.`, 'ask', r.node)
  const target = r.target
  if (!target || effect.closes) return
  if (target.value === null) return add('shell.redirect-dynamic', 'Redirects to a path that is only known at run time.', 'ask', r.node)
  const value = target.value
  if (effect.duplicates && isDescriptorWord(value)) return
  if (effect.writes && /^\/dev\/(null|stdout|stderr|tty|fd\/[012])$/.test(value)) return
  const absolute = normalise(value, ctx, ctx.cwd)
  if (effect.writes && isBlockDevice(absolute)) {
    return add('shell.critical.raw-device-write', `Writes raw bytes to ${absolute}, destroying what is on it.`, 'deny', r.node)
  }
  if (/^\/dev\/(tcp|udp)\//.test(value)) return add('shell.network', `Opens a network connection through ${value}.`, 'ask', r.node)
  checkOnePath(a, value, target, add, effect.writes, effect.reads ? 'contents' : 'none')
  if (effect.writes) {
    const where = isInside(resolveReal(absolute), ctx.workspace) ? '' : ', outside the workspace'
    add('shell.redirect-write', `Writes to ${displayPath(absolute, ctx)}${where}.`, 'ask', r.node)
  }
}
