/**
 * The critical catalogue over every view of the text (docs/risk.md, items 6 and 9): what bash
 * would read when the two parsers disagree, the visible text of what could not be parsed, every
 * spelling of a program name, every brace expansion and every folder the command may be in.
 */
import type { Verdict } from '../../../shared'
import type { Mapper, ShellFinding, Scope } from './analysis'
import { rawText } from './analysis'
import { readBashView } from './bash-commands'
import { basenameOf, criticalHit } from './critical'
import { WRAPPERS } from './programs'
import type { PreparedSource } from './source'
import { windowsHit } from './windows'
import type { Word } from './words'

type CriticalVerdict = { rule: string; message: string; verdict: Verdict }

/** The commands bash itself would read (the second parser's view), through the critical catalogue. */
export function scanBashCommands(scope: Scope, findings: ShellFinding[], text: string, map: Mapper): void {
  for (const command of readBashView(text).commands) {
    const raw = command.words.map((w) => text.slice(w.start, w.end))
    const values = raw.map((w) => w.replace(/\\(.)/gs, '$1').replace(/['"]/g, ''))
    if (values.length === 0) continue
    const hit = criticalFor(scope, values, raw)
    if (hit) {
      const first = command.words[0]!
      const last = command.words.at(-1)!
      findings.push({ rule: hit.rule, message: `${hit.message} (hidden from one parser by the other)`, verdict: 'deny', ...map(first.start, last.end) })
    }
  }
}

/** For unparsable text: the critical catalogue still applies to what is visible (`{rm,-rf,/}`). */
export function scanRawTokens(scope: Scope, findings: ShellFinding[], source: PreparedSource, toOuter: Mapper): void {
  for (const segment of source.text.split(/;|&&|\|\||\||\n|&/)) {
    const raw = segment.trim().replace(/^[({\s]+|[)}\s]+$/g, '')
    const expanded = raw.startsWith('{') || raw.includes(',') ? raw.replace(/[{}]/g, '').split(',').join(' ') : raw
    const tokens = expanded.split(/\s+/).filter(Boolean).map((t) => t.replace(/^['"]|['"]$/g, ''))
    if (tokens.length === 0) continue
    const hit = criticalFor(scope, tokens.map((t) => t.replace(/['"\\]/g, '')), tokens)
    if (hit) {
      const at = source.text.indexOf(segment.trim())
      findings.push({ rule: hit.rule, message: hit.message, verdict: hit.verdict, ...toOuter(Math.max(0, at), Math.max(0, at) + segment.trim().length) })
    }
  }
}

/** The catalogue's verdict on words read without the analyzer (wrappers unwrapped, any case, every folder); deny or null. */
export function criticalFor(scope: Scope, values: string[], raw: string[]): CriticalVerdict | null {
  let argv = values
  // Unwrap the obvious wrappers here too, so `sudo {rm,-rf,/}`-style text is still caught.
  while (argv.length > 1 && (WRAPPERS.has(basenameOf(argv[0]!)) || argv[0] === 'xargs')) argv = argv.slice(1)
  const program = basenameOf(argv[0] ?? '')
  for (const name of new Set([program, program.toLowerCase()])) {
    for (const cwd of scope.cwds) {
      const hit = criticalHit(name, argv, scope.ctx, cwd)
      if (hit) return { ...hit, verdict: 'deny' }
    }
  }
  const win = windowsHit(raw.slice(raw.length - argv.length))
  return win && win.verdict === 'deny' ? win : null
}

/** The first hit of the catalogue for any spelling of the name, brace expansion and working folder (plain loops: this runs for every layer of every command). */
export function firstCriticalHit(scope: Scope, names: readonly string[], variants: ReadonlyArray<ReadonlyArray<string | null>>): ReturnType<typeof criticalHit> {
  for (const name of names) {
    for (const variant of variants) {
      for (const cwd of scope.cwds) {
        const hit = criticalHit(name, variant, scope.ctx, cwd)
        if (hit) return hit
      }
    }
  }
  return null
}

const MAX_BRACE_VARIANTS = 64

/** The argv once for each expansion of its brace words (`rm -rf /{usr,etc}` → `rm -rf /usr`, `rm -rf /etc`). */
export function braceVariants(argv: Word[]): Array<Array<string | null>> {
  if (argv.every((w) => w.value !== null)) return [argv.map((w) => w.value)]
  let variants: Array<Array<string | null>> = [[]]
  for (const word of argv) {
    const expanded = word.value === null ? expandBraces(rawText(word)) : null
    const options = expanded ?? [word.value]
    const next: Array<Array<string | null>> = []
    for (const variant of variants) for (const option of options) next.push([...variant, option])
    if (next.length > MAX_BRACE_VARIANTS) return [argv.map((w) => w.value)]
    variants = next
  }
  return variants
}

/** `a{b,c}d` → abd, acd (comma lists, no nesting, no quotes or expansions); null for anything else. */
function expandBraces(text: string): string[] | null {
  if (!/^[^'"$`\\]*\{[^{}]*,[^{}]*\}[^'"$`\\]*$/.test(text)) return null
  let results = ['']
  const pattern = /\{([^{}]*,[^{}]*)\}|([^{]+)/g
  for (const match of text.matchAll(pattern)) {
    const options = match[1] !== undefined ? match[1].split(',') : [match[2]!]
    results = results.flatMap((prefix) => options.map((option) => prefix + option))
    if (results.length > MAX_BRACE_VARIANTS) return null
  }
  return results
}
