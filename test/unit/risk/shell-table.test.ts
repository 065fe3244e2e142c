import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RiskEngine } from '../../../src/main/risk'
import { shellCases, type Autonomy, type ShellCase, type Verdict } from './shell-cases'

/**
 * Table test of the shell risk classifier against the corpus in `shell-cases.ts`
 * (docs/risk.md). The corpus is written from the policy; when a row
 * fails, decide whether the engine or the row is wrong — never loosen a row to make it pass.
 */

const AUTONOMIES: readonly Autonomy[] = ['readonly', 'supervised', 'full']

const MIN_TOTAL = 420
const MIN_PER_FAMILY: Record<string, number> = {
  benign: 100,
  dangerous: 60,
  obfuscated: 60,
  critical: 40,
  windows: 30,
  bypass: 25
}
const MIN_PER_AUTONOMY: Partial<Record<Autonomy, number>> = { readonly: 15, full: 15 }

const autonomyOf = (c: ShellCase): Autonomy => c.autonomy ?? 'supervised'
/** `bypass:codex` → `bypass`. */
const familyOf = (c: ShellCase): string => c.group.split(':')[0]!

/** One readable line: newlines, control and non-ASCII characters are shown escaped. */
function show(command: string): string {
  return command.replace(/[^\x20-\x7e]/gu, (ch) =>
    ch === '\n' ? '\\n' : `\\u{${ch.codePointAt(0)!.toString(16).padStart(4, '0')}}`
  )
}

function title(group: string, command: string, autonomy: Autonomy, expected: Verdict): string {
  const level = autonomy === 'supervised' ? '' : ` (${autonomy})`
  return `[${group}] ${show(command)}${level} → ${expected}`
}

// ───────────────────────────── the corpus itself ─────────────────────────────

describe('shell corpus', () => {
  it(`has at least ${MIN_TOTAL} cases`, () => {
    expect(shellCases.length).toBeGreaterThanOrEqual(MIN_TOTAL)
  })

  it('has no duplicate (command, autonomy) pairs', () => {
    const seen = new Set<string>()
    const duplicates: string[] = []
    for (const c of shellCases) {
      const key = `${autonomyOf(c)}\u0000${c.command}`
      if (seen.has(key)) duplicates.push(`${show(c.command)} (${autonomyOf(c)})`)
      seen.add(key)
    }
    expect(duplicates).toEqual([])
  })

  it('meets the minimum number of cases per group family', () => {
    const counts = new Map<string, number>()
    for (const c of shellCases) counts.set(familyOf(c), (counts.get(familyOf(c)) ?? 0) + 1)
    const shortfalls = Object.entries(MIN_PER_FAMILY)
      .filter(([family, min]) => (counts.get(family) ?? 0) < min)
      .map(([family, min]) => `${family}: ${counts.get(family) ?? 0} < ${min}`)
    expect(shortfalls).toEqual([])
  })

  it('has enough cases for the readonly and full autonomy levels', () => {
    for (const [autonomy, min] of Object.entries(MIN_PER_AUTONOMY)) {
      expect(shellCases.filter((c) => autonomyOf(c) === autonomy).length, autonomy).toBeGreaterThanOrEqual(min)
    }
  })

  it('keeps every family consistent with what it stands for', () => {
    const wrong = shellCases
      .filter((c) => {
        const family = familyOf(c)
        const supervised = autonomyOf(c) === 'supervised'
        if (family === 'benign') return !(supervised && c.expect === 'allow')
        if (family === 'dangerous') return !(supervised && c.expect === 'ask')
        if (family === 'obfuscated') return !(supervised && c.expect !== 'allow')
        if (family === 'critical') return !(supervised && c.expect === 'deny')
        if (family === 'windows') return !(supervised && c.expect !== 'allow')
        if (family === 'bypass') return !(supervised && c.note)
        if (family === 'autonomy') return supervised
        return true // an unknown family is a typo
      })
      .map((c) => `${c.group}: ${show(c.command)} → ${c.expect}`)
    expect(wrong).toEqual([])
  })

  it('agrees with itself across autonomy levels', () => {
    // readonly: ask → deny; full: ask → allow; allow and deny are the same everywhere.
    const mapped: Record<Autonomy, Record<Verdict, Verdict>> = {
      readonly: { allow: 'allow', ask: 'deny', deny: 'deny' },
      supervised: { allow: 'allow', ask: 'ask', deny: 'deny' },
      full: { allow: 'allow', ask: 'allow', deny: 'deny' }
    }
    const supervised = new Map(shellCases.filter((c) => autonomyOf(c) === 'supervised').map((c) => [c.command, c.expect]))
    const disagreements = shellCases
      .filter((c) => autonomyOf(c) !== 'supervised' && supervised.has(c.command))
      .filter((c) => mapped[autonomyOf(c)][supervised.get(c.command)!] !== c.expect)
      .map((c) => `${show(c.command)} (${autonomyOf(c)}) → ${c.expect}, supervised → ${supervised.get(c.command)}`)
    expect(disagreements).toEqual([])
  })
})

// ───────────────────────────── the engine against the corpus ─────────────────────────────

describe('RiskEngine.assessShell', () => {
  let root = ''
  let HOME = ''
  let WS = ''
  let engine: Awaited<ReturnType<typeof RiskEngine.create>>

  beforeAll(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'deskclaw-risk-')))
    HOME = path.join(root, 'home', 'tester')
    WS = path.join(HOME, 'project')
    for (const dir of ['src', 'build', 'node_modules']) fs.mkdirSync(path.join(WS, dir), { recursive: true })
    fs.writeFileSync(path.join(WS, 'src', 'index.ts'), 'export const answer = 42\n')
    fs.writeFileSync(path.join(WS, 'README.md'), '# project\n\nTODO: write docs\n')
    fs.writeFileSync(path.join(WS, '.env'), 'API_KEY=not-a-real-key\n')
    engine = await RiskEngine.create({ home: HOME })
  })

  afterAll(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true })
  })

  function assess(command: string, autonomy: Autonomy) {
    return engine.assessShell(command, { workspace: WS, autonomy })
  }

  type Assessment = ReturnType<typeof assess>

  function explain(a: Assessment): string {
    const findings = a.findings.map((f) => `${f.verdict} ${f.rule}: ${f.message}`).join('; ')
    return `programs [${a.programs.join(', ')}]; findings: ${findings || 'none'}`
  }

  /** The verdict, plus: a non-allow verdict is backed by a finding with that verdict; spans are in range. */
  function expectAssessment(command: string, autonomy: Autonomy, expected: Verdict): void {
    const a = assess(command, autonomy)
    expect(a.verdict, explain(a)).toBe(expected)
    if (expected !== 'allow') {
      expect(
        a.findings.some((f) => f.verdict === expected),
        `a finding with verdict ${expected}: ${explain(a)}`
      ).toBe(true)
    }
    for (const f of a.findings) {
      if (!f.span) continue
      const where = `${f.rule} span ${f.span.start}..${f.span.end} of ${command.length}`
      expect(f.span.arg, where).toBe('command')
      expect(Number.isInteger(f.span.start) && Number.isInteger(f.span.end), where).toBe(true)
      expect(f.span.start, where).toBeGreaterThanOrEqual(0)
      expect(f.span.start, where).toBeLessThanOrEqual(f.span.end)
      expect(f.span.end, where).toBeLessThanOrEqual(command.length)
    }
  }

  describe('every case at its autonomy level', () => {
    it.each(shellCases.map((c) => [title(c.group, c.command, autonomyOf(c), c.expect), c] as const))(
      '%s',
      (_title, c) => {
        expectAssessment(c.command, autonomyOf(c), c.expect)
      }
    )
  })

  // The critical catalogue (and every other supervised deny, e.g. the Windows ones) holds at every level.
  const denied = shellCases.filter((c) => c.expect === 'deny' && autonomyOf(c) === 'supervised')
  describe.each(AUTONOMIES)('deny holds at autonomy %s', (autonomy) => {
    it.each(denied.map((c) => [title(c.group, c.command, autonomy, 'deny'), c] as const))('%s', (_title, c) => {
      expectAssessment(c.command, autonomy, 'deny')
    })
  })

  // readonly is supervised with every ask turned into deny; rows written for readonly take precedence.
  const explicitReadonly = new Set(shellCases.filter((c) => autonomyOf(c) === 'readonly').map((c) => c.command))
  const derivedReadonly = shellCases.filter(
    (c) => autonomyOf(c) === 'supervised' && c.expect !== 'deny' && !explicitReadonly.has(c.command)
  )
  describe('readonly mirrors supervised (ask → deny)', () => {
    it.each(
      derivedReadonly.map((c) => {
        const expected: Verdict = c.expect === 'allow' ? 'allow' : 'deny'
        return [title(c.group, c.command, 'readonly', expected), c, expected] as const
      })
    )('%s', (_title, c, expected) => {
      expect(assess(c.command, 'readonly').verdict).toBe(expected)
    })
  })

  // Unwrapping must surface the inner program; quoted data must not become one.
  describe('programs considered', () => {
    it.each([
      ['ls && git status', ['ls', 'git'], []],
      ['timeout 5 rm -rf /', ['rm'], []],
      ['sudo -u root rm -rf /', ['rm'], []],
      ["sh -c 'rm -rf build'", ['rm'], []],
      [String.raw`find . -exec rm {} \;`, ['rm'], []],
      ['echo hi | xargs rm -rf /', ['rm'], []],
      ['echo $(rm -rf /)', ['echo', 'rm'], []],
      ['{ cat README.md; rm -rf build; }', ['cat', 'rm'], []],
      ['echo "rm -rf /"', ['echo'], ['rm']],
      ['grep -n "rm -rf" README.md', ['grep'], ['rm']]
    ] as const)('%s', (command, present, absent) => {
      const { programs } = assess(command, 'supervised')
      for (const p of present) expect(programs, `${p} in [${programs.join(', ')}]`).toContain(p)
      for (const p of absent) expect(programs, `${p} not in [${programs.join(', ')}]`).not.toContain(p)
    })
  })
})
