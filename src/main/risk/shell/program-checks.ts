/**
 * Known programs by their spec tables (docs/risk.md, item 5 and "Program specs"): the spec allows
 * the arguments or names why not — the only allow path for a program. What a spec allowed also
 * says which computed words and which literal stdin are harmless; a program with no spec asks by
 * its family (writes, network, …).
 */
import type { AddFinding, Analysis } from './analysis'
import { TRUSTED_DIRS } from './analysis'
import { finishUnit, type CommandJudgement } from './command-judgement'
import { checkOnePath, checkPaths, type PathJudging } from './path-checks'
import { programFamily } from './programs'
import { safeSpecFor } from './safe-programs'
import { checkSearchedFiles } from './search-checks'
import { computedWordHarmless, matchSpec, type ProgramSpec, type SpecEntry } from './spec'
import { literalStdinHarmless } from './stdin-checks'
import { versionSpecFor } from './version-spec'
import type { Word } from './words'

/**
 * The one allow path for known programs (docs/risk.md, "Program specs"): the spec allows the
 * arguments or names why not; the values of options whose role is `read` are files, judged like operands.
 */
export function judgeBySpec(a: PathJudging, program: string, spec: ProgramSpec, argv: Word[], head: Word, add: AddFinding, unitAdd: AddFinding): SpecEntry | null {
  const match = matchSpec(program, spec, argv.slice(1).map((w) => w.value))
  if (!match.ok) {
    const writes = / writes | runs code /.test(match.why)
    unitAdd(writes ? 'shell.writes' : 'shell.unknown-option', `${match.why}.`, 'ask', head)
    return null
  }
  for (const read of match.entry.reads) {
    const word = argv.find((w) => w.value !== null && w.value.endsWith(read)) ?? head
    checkOnePath(a, read, word, add, false, 'contents')
  }
  a.evidence.specs.push(match.entry)
  return match.entry
}

/** `command -v git` and `command -V git` look a name up; they run nothing. True when this was that form (the unit is finished). */
export function judgeCommandLookup(a: Analysis, j: CommandJudgement, argv: Word[], program: string, values: Array<string | null>): boolean {
  if (program !== 'command' || (values[1] !== '-v' && values[1] !== '-V')) return false
  judgeBySpec(a, program, safeSpecFor('command')!, argv, argv[0]!, j.add, j.unitAdd)
  j.variablesRead = 'none'
  finishUnit(a, j, argv)
  return true
}

/** A program's own version or help form (`node --version`, `go version`), run by its system name. True when it was one (the unit is finished). */
export function judgeVersionQuery(a: Analysis, j: CommandJudgement, argv: Word[], program: string, values: Array<string | null>): boolean {
  const head = argv[0]!
  const version = versionSpecFor(program)
  const versionMatch = version ? matchSpec(program, version, values.slice(1)) : null
  if (!versionMatch?.ok || (head.value!.includes('/') && !TRUSTED_DIRS.test(head.value!))) return false
  a.evidence.specs.push(versionMatch.entry)
  j.variablesRead = 'none'
  finishUnit(a, j, argv)
  return true
}

/** Any other program: by its spec when it has one and is named by its system name, else by its family. Finishes the unit. */
export function judgeKnownProgram(a: Analysis, j: CommandJudgement, argv: Word[], program: string, values: Array<string | null>): void {
  const { add, unitAdd, inv } = j
  const head = argv[0]!
  const spec = safeSpecFor(program)
  const trustedName = !head.value!.includes('/') || TRUSTED_DIRS.test(head.value!)
  if (spec && trustedName) {
    const entry = judgeBySpec(a, program, spec, argv, head, add, unitAdd)
    j.variablesRead = spec.reads
    if (entry) {
      const finalArgv = argv
      const args = values.slice(1)
      j.harmlessWord = (word) => {
        const k = finalArgv.indexOf(word)
        return k > 0 && computedWordHarmless(spec, k - 1, args)
      }
      j.stdinOk = !j.underXargs && literalStdinHarmless(a, inv, entry, argv, spec.reads, add)
      if (j.stdinOk && inv.heredocNode) entry.via = [...(entry.via ?? []), inv.heredocNode.type === 'herestring_redirect' ? 'fed a literal here-string' : 'fed a literal here-doc']
    }
    checkPaths(a, argv, add, false, spec.reads, spec.patternFirst === true)
    if (spec.reads === 'contents') checkSearchedFiles(a, program, argv, inv, j.underXargs, add)
  } else {
    const family = programFamily(program)
    unitAdd(family.rule, family.message, 'ask', head)
    j.variablesRead = 'contents'
    checkPaths(a, argv, add, family.rule === 'shell.writes')
  }
  finishUnit(a, j, argv)
}
