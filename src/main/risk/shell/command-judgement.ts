/**
 * One simple command being judged, layer by layer (`sudo timeout 5 rm x` → `timeout 5 rm x` →
 * `rm x`): what every step of judge-command.ts and the program checks share while they judge it.
 */
import type { AddFinding, Analysis, Invocation, Mapper, ShellFinding } from './analysis'
import { basenameOf } from './critical'
import { tokensForRules } from './programs'
import type { PreparedSource } from './source'
import type { ReadKind } from './spec'
import type { Word } from './words'

export interface CommandJudgement {
  readonly inv: Invocation
  readonly source: PreparedSource
  readonly toOuter: Mapper
  /** How deep in nested shells (`sh -c`, eval) the command stands. */
  readonly depth: number
  /** A finding no user rule waives (structure, obfuscation, secrets, the critical catalogue). */
  readonly add: AddFinding
  /** A program-level finding, kept on the unit, that a user rule may override. */
  readonly unitAdd: AddFinding
  readonly unitFindings: ShellFinding[]
  /** The argv at each wrapper layer so far, outermost first. */
  readonly layers: Word[][]
  /** The command runs under xargs, which appends words nobody has seen. */
  underXargs: boolean
  /** What the program reads from its arguments: until a step knows it reads nothing, plain variables in them ask. */
  variablesRead: ReadKind
  /** Set by the step that allows the program: which computed words ($(…)) are harmless where they stand. */
  harmlessWord: ((word: Word) => boolean) | null
  /** Set by the step that allows the program: literal text on its stdin is harmless (docs/risk.md, item 4). */
  stdinOk: boolean
}

/** The program found at this layer becomes a unit, with the findings a rule may override. */
export function finishUnit(a: Pick<Analysis, 'units'>, j: CommandJudgement, argv: Word[]): void {
  const tokens = (words: Word[]) => tokensForRules(words.map((w, i) => (i === 0 && w.value ? basenameOf(w.value) : w.value)))
  const first = argv[0] ?? j.inv.words[0]
  const last = argv[argv.length - 1] ?? first
  const range = first && last ? j.toOuter(first.start, last.end) : j.toOuter(j.inv.node.startIndex, j.inv.node.endIndex)
  a.units.push({ argv: tokens(argv), layers: j.layers.map(tokens), findings: j.unitFindings, ...range })
}
