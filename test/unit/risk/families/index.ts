/**
 * The family corpus: a held-out test set for the shell risk engine, generated from the written
 * principles (the issue; docs/risk.md), not from the engine's code.
 *
 * One file per principle — secrets.ts (2), options.ts (3), shells.ts (4), catastrophic.ts (5),
 * diagnostics.ts (6) — each expands a handful of ideas ("families") into variants with the
 * combinators of kit.ts. `measureFamilies()` runs every case against a real temporary home and
 * returns the counts the Done-when is stated in, so a report script can reuse it.
 *
 * Done-when, per principle and overall: no dangerous case allowed; ≥ 95 % of catastrophic cases
 * denied (those marked `minimum: 'ask'` count when they are not allowed) and none allowed;
 * ≥ 95 % of benign cases allowed.
 */

import { RiskEngine } from '../../../../src/main/risk'
import { catastrophicCases } from './catastrophic'
import { diagnosticsCases } from './diagnostics'
import { createFixture, disposeFixture, PRINCIPLE_NAMES, type FamilyCase, type Fixture, type Principle, type Verdict } from './kit'
import { optionsCases } from './options'
import { secretsCases } from './secrets'
import { shellsCases } from './shells'
import { effectsCases } from './effects'
import { gitBeyondCases } from './git-beyond'
import { needlessCases } from './needless'
import { networkPathsCases } from './network-paths'
import { runsCodeCases } from './runs-code'
import { secretNamesCases } from './secret-names'
import { spellingCases } from './spelling'

export { createFixture, disposeFixture, PRINCIPLE_NAMES }
export type { CaseClass, FamilyCase, Fixture, Principle, Verdict } from './kit'

export const PRINCIPLES: readonly Principle[] = [2, 3, 4, 5, 6, 11, 12, 13, 14, 15, 17, 18]
export const MIN_PER_PRINCIPLE = 30
/** Issue 21 raised the benign bar from 95 % to 97 %. */
export const BENIGN_ALLOWED_MIN = 0.97
export const CATASTROPHIC_DENIED_MIN = 0.95

type Engine = Awaited<ReturnType<typeof RiskEngine.create>>

/** Every case, per principle, before the cross-file de-duplication. */
export function casesByPrinciple(fx: Fixture): Record<Principle, FamilyCase[]> {
  return {
    2: secretsCases(fx),
    3: optionsCases(),
    4: shellsCases(),
    5: catastrophicCases(fx),
    6: diagnosticsCases(),
    11: runsCodeCases(),
    12: spellingCases(),
    13: gitBeyondCases(),
    14: secretNamesCases(fx),
    15: networkPathsCases(),
    17: effectsCases(),
    18: needlessCases()
  }
}

/** A command generated in more than one place. */
export interface Duplicate {
  command: string
  places: string[]
  /** The places disagree on class or expectation: a corpus bug. */
  conflict: boolean
}

/** All cases, each command once (the first place wins), and the repeats that were dropped. */
export function familyCases(fx: Fixture): { cases: FamilyCase[]; duplicates: Duplicate[] } {
  const first = new Map<string, FamilyCase>()
  const repeats = new Map<string, FamilyCase[]>()
  for (const p of PRINCIPLES) {
    for (const c of casesByPrinciple(fx)[p]) {
      const seen = first.get(c.command)
      if (!seen) first.set(c.command, c)
      else repeats.set(c.command, [...(repeats.get(c.command) ?? [seen]), c])
    }
  }
  const duplicates = [...repeats.entries()].map(([command, all]) => ({
    command,
    places: all.map((c) => `${c.principle}/${c.family} (${c.class})`),
    conflict: new Set(all.map((c) => `${c.class}:${c.expect}:${c.minimum ?? ''}`)).size > 1
  }))
  return { cases: [...first.values()], duplicates }
}

// ───────────────────────────── judging ─────────────────────────────

export interface CaseResult {
  case: FamilyCase
  /** `error` when the engine threw. */
  verdict: Verdict | 'error'
  /** The rules of the findings that carry the final verdict. */
  rules: string[]
  /** Meets the class: benign allowed; dangerous not allowed; catastrophic denied (or ≥ minimum). */
  ok: boolean
}

export function meetsClass(c: FamilyCase, verdict: Verdict | 'error'): boolean {
  if (verdict === 'error') return false
  switch (c.class) {
    case 'benign':
      return verdict === 'allow'
    case 'dangerous':
      return verdict !== 'allow'
    case 'catastrophic':
      return verdict === 'deny' || (c.minimum === 'ask' && verdict === 'ask')
  }
}

export function judgeCase(engine: Engine, fx: Fixture, c: FamilyCase): CaseResult {
  try {
    const a = engine.assessShell(c.command, { workspace: fx.ws, autonomy: 'supervised' })
    const rules = a.findings.filter((f) => f.verdict === a.verdict).map((f) => f.rule)
    return { case: c, verdict: a.verdict, rules, ok: meetsClass(c, a.verdict) }
  } catch (err) {
    return { case: c, verdict: 'error', rules: [String((err as Error)?.message ?? err).slice(0, 80)], ok: false }
  }
}

// ───────────────────────────── counting ─────────────────────────────

export interface Tally {
  benign: { total: number; allowed: number }
  dangerous: { total: number; allowed: number; denied: number }
  catastrophic: { total: number; denied: number; met: number; allowed: number }
  errors: number
}

function emptyTally(): Tally {
  return {
    benign: { total: 0, allowed: 0 },
    dangerous: { total: 0, allowed: 0, denied: 0 },
    catastrophic: { total: 0, denied: 0, met: 0, allowed: 0 },
    errors: 0
  }
}

function add(t: Tally, r: CaseResult): void {
  const v = r.verdict
  if (v === 'error') t.errors++
  if (r.case.class === 'benign') {
    t.benign.total++
    if (v === 'allow') t.benign.allowed++
  } else if (r.case.class === 'dangerous') {
    t.dangerous.total++
    if (v === 'allow') t.dangerous.allowed++
    if (v === 'deny') t.dangerous.denied++
  } else {
    t.catastrophic.total++
    if (v === 'deny') t.catastrophic.denied++
    if (r.ok) t.catastrophic.met++
    if (v === 'allow') t.catastrophic.allowed++
  }
}

export function tally(results: readonly CaseResult[]): Tally {
  const t = emptyTally()
  for (const r of results) add(t, r)
  return t
}

const pct = (n: number, d: number): string => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)}%`)

/** The Done-when criteria a tally misses (empty when it meets them all). */
export function doneWhenViolations(t: Tally): string[] {
  const out: string[] = []
  if (t.dangerous.allowed > 0) out.push(`dangerous allowed: ${t.dangerous.allowed} of ${t.dangerous.total} (must be 0)`)
  if (t.catastrophic.allowed > 0) out.push(`catastrophic allowed: ${t.catastrophic.allowed} of ${t.catastrophic.total} (must be 0)`)
  if (t.catastrophic.total > 0 && t.catastrophic.met / t.catastrophic.total < CATASTROPHIC_DENIED_MIN) {
    out.push(`catastrophic denied: ${pct(t.catastrophic.met, t.catastrophic.total)} of ${t.catastrophic.total} (must be ≥ 95%)`)
  }
  if (t.benign.total > 0 && t.benign.allowed / t.benign.total < BENIGN_ALLOWED_MIN) {
    out.push(`benign allowed: ${pct(t.benign.allowed, t.benign.total)} of ${t.benign.total} (must be ≥ ${BENIGN_ALLOWED_MIN * 100}%)`)
  }
  if (t.errors > 0) out.push(`engine errors: ${t.errors}`)
  return out
}

export interface FamilyTally {
  principle: Principle
  family: string
  tally: Tally
  failures: CaseResult[]
}

export interface FamilyReport {
  total: number
  overall: Tally
  byPrinciple: Record<Principle, Tally>
  byFamily: FamilyTally[]
  results: CaseResult[]
  duplicates: Duplicate[]
  /** Turns the fixture's temporary paths back into `<HOME>` for display. */
  display: (command: string) => string
}

export function summarise(results: CaseResult[], duplicates: Duplicate[], fx: Fixture): FamilyReport {
  const byPrinciple = Object.fromEntries(PRINCIPLES.map((p) => [p, tally(results.filter((r) => r.case.principle === p))])) as Record<
    Principle,
    Tally
  >
  const families = new Map<string, CaseResult[]>()
  for (const r of results) {
    const key = `${r.case.principle}\u0000${r.case.family}`
    families.set(key, [...(families.get(key) ?? []), r])
  }
  const byFamily = [...families.entries()].map(([key, rs]) => ({
    principle: Number(key.split('\u0000')[0]) as Principle,
    family: key.split('\u0000')[1]!,
    tally: tally(rs),
    failures: rs.filter((r) => !r.ok)
  }))
  const display = (command: string): string =>
    command
      .split(fx.home)
      .join('<HOME>')
      .replace(/[^\x20-\x7e]/gu, (ch) => (ch === '\n' ? '\\n' : `\\u{${ch.codePointAt(0)!.toString(16)}}`))
  return { total: results.length, overall: tally(results), byPrinciple, byFamily, results, duplicates, display }
}

/**
 * Runs the whole corpus. Without arguments it builds (and removes) its own temporary home and
 * engine; pass them to reuse.
 */
export async function measureFamilies(options: { fixture?: Fixture; engine?: Engine } = {}): Promise<FamilyReport> {
  const fx = options.fixture ?? createFixture()
  try {
    const engine = options.engine ?? (await RiskEngine.create({ home: fx.home }))
    const { cases, duplicates } = familyCases(fx)
    const results = cases.map((c) => judgeCase(engine, fx, c))
    return summarise(results, duplicates, fx)
  } finally {
    if (!options.fixture) disposeFixture(fx)
  }
}

// ───────────────────────────── printing ─────────────────────────────

export function formatTally(t: Tally): string {
  const parts: string[] = []
  if (t.benign.total) parts.push(`benign allowed ${t.benign.allowed}/${t.benign.total} (${pct(t.benign.allowed, t.benign.total)})`)
  if (t.dangerous.total) parts.push(`dangerous allowed ${t.dangerous.allowed}/${t.dangerous.total}`)
  if (t.catastrophic.total) {
    parts.push(
      `catastrophic denied ${t.catastrophic.met}/${t.catastrophic.total} (${pct(t.catastrophic.met, t.catastrophic.total)}), allowed ${t.catastrophic.allowed}`
    )
  }
  if (t.errors) parts.push(`errors ${t.errors}`)
  return parts.join('; ')
}

/**
 * A compact table: per family, the counts and the failing commands with the verdict and the
 * deciding rules. `principle` limits it to one principle; `maxFailures` caps the rows per family.
 */
export function formatReport(report: FamilyReport, options: { principle?: Principle; maxFailures?: number } = {}): string {
  const { principle, maxFailures = 40 } = options
  const lines: string[] = []
  const principles = principle ? [principle] : PRINCIPLES
  for (const p of principles) {
    lines.push(`── ${p}. ${PRINCIPLE_NAMES[p]}: ${formatTally(report.byPrinciple[p])}`)
    for (const f of report.byFamily.filter((x) => x.principle === p)) {
      const n = f.tally.benign.total + f.tally.dangerous.total + f.tally.catastrophic.total
      const mark = f.failures.length ? '✗' : '✓'
      lines.push(`  ${mark} ${f.family} — ${n} cases, ${f.failures.length} failing`)
      for (const r of f.failures.slice(0, maxFailures)) {
        const want = r.case.class === 'benign' ? 'allow' : r.case.class === 'dangerous' ? 'ask|deny' : r.case.minimum ? 'deny|ask' : 'deny'
        lines.push(`      ${r.verdict.padEnd(5)} (want ${want}) ${report.display(r.case.command)}  [${[...new Set(r.rules)].join(', ') || 'no finding'}]`)
      }
      if (f.failures.length > maxFailures) lines.push(`      … ${f.failures.length - maxFailures} more`)
    }
  }
  if (!principle) lines.push(`── overall: ${formatTally(report.overall)}`)
  return lines.join('\n')
}
