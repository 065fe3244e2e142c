import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RiskEngine } from '../../../src/main/risk'
import { INTERPRETERS, interpreterName, SHELLS } from '../../../src/main/risk/shell/programs'
import { versionSpecFor } from '../../../src/main/risk/shell/version-spec'
import type { ProgramSpec } from '../../../src/main/risk/shell/spec'
import { registeredSpecs, type RegisteredSpec } from '../../../src/main/risk/shell/spec-registry'
import { createFixture, disposeFixture, type Fixture } from './families/kit'

/**
 * The generator test of issue 21 (docs/risk.md, "Program specs"): driven by the specs, not by
 * examples. For every program and subcommand of every table it generates what the spec does not
 * name — unknown options, prefixes of the unsafe long options, bundles that hide an unsafe letter,
 * attached and separate values, extra operands that are secrets, files outside the workspace or
 * code — and asserts none is allowed; and it asserts the spec's own safe forms are allowed, so the
 * test fails both ways. A new entry in any table is walked here without a line of test. The tables: known-safe
 * programs, version queries, git, cmd's own commands, PowerShell's and cmd's reads on the sh side, the wrappers'
 * own options — and every interpreter and shell, none of which runs code silently.
 */

interface Generated {
  command: string
  shell?: 'cmd'
  entry: string
  want: 'allow' | 'not-allow'
  why: string
}

const words = (list: readonly string[]) => list.join(' ')

/** A short option letter the spec does not know. */
function unknownLetter(spec: ProgramSpec): string | null {
  const known = `${spec.flags ?? ''}${spec.valued ?? ''}${Object.keys(spec.unsafe ?? {}).join('')}`
  return [...'QYKjJgkWXyB'].find((l) => !known.includes(l)) ?? null
}

/** The operand sequence a subcommand table starts with (`docker ps`), '*' filled in. */
function baseOf(r: RegisteredSpec): string[] {
  const first = r.spec.subcommands?.find((s) => s.length > 0) ?? []
  return [r.program, ...r.path, ...first.map((w) => (w === '*' ? 'x' : w))]
}

/** cmd.exe's own commands: unknown and unsafe switches, secret operands, the safe forms. */
function generateCmd(r: RegisteredSpec): Generated[] {
  const entry = `${r.table} ${r.program}`
  const out: Generated[] = (r.spec.safeForms ?? [[]]).map((form) => ({ command: words([r.program, ...form]), entry, want: 'allow' as const, why: 'a safe form of the spec', shell: 'cmd' as const }))
  const no = (args: string[], why: string) => out.push({ command: words([r.program, ...args]), entry, want: 'not-allow', why, shell: 'cmd' })
  if (!r.spec.anyOption) {
    no(['/deskclaw'], 'an unknown switch')
    no(['/deskclaw:x'], 'an unknown switch with a value')
  }
  for (const name of Object.keys(r.spec.unsafe ?? {})) {
    no([`/${name}`, 'x'], `unsafe /${name}`)
    no([`/${name.toUpperCase()}:x`], `unsafe /${name} in upper case with a value`)
  }
  const lead = r.spec.patternFirst ? ['x'] : []
  for (const secret of ['.env', 'config\\master.key', '.env.', '%APPDATA%\\Microsoft\\Credentials\\x']) no([...lead, secret], `a secret operand ${secret}`)
  return out
}

function generate(r: RegisteredSpec, fx: Fixture): Generated[] {
  if (r.shell === 'cmd') return generateCmd(r)
  const out: Generated[] = []
  const entry = [r.table, r.program, ...r.path].join(' ')
  const base = baseOf(r)
  const reach = r.reach ?? []
  const no = (args: readonly string[], why: string) => out.push({ command: words([...base, ...args, ...reach]), entry, want: 'not-allow', why })
  const spec = r.spec
  // What the spec allows, so the test fails both ways.
  const safe = spec.safeForms ?? (spec.subcommands ? spec.subcommands.map((s) => s.map((w) => (w === '*' ? 'x' : w))) : [[]])
  for (const form of safe) out.push({ command: words([r.program, ...r.path, ...form, ...(r.table === 'wrappers' || form.length > 0 ? [] : r.tail ?? [])]), entry, want: 'allow', why: 'a safe form of the spec' })
  // With git's global options the subcommand follows them; a wrapper's command follows its options.
  const tail = spec.commands ? ['status'] : (r.tail ?? [])
  // PowerShell parameters in any case, with `:value`, and the prefixes PowerShell takes; cmd switches by name.
  if (spec.parameters) {
    no(['-DeskclawUnknown', ...tail], 'an unknown parameter')
    for (const name of Object.keys(spec.unsafe ?? {}).filter((n) => n.length > 1 && !spec.switches?.includes(n))) {
      no([`-${name}`, 'x', ...tail], `unsafe parameter -${name}`)
      no([`-${name.toUpperCase()}:x`, ...tail], `unsafe parameter -${name} in upper case with :value`)
      for (let n = 2; n < name.length; n++) if (!spec.parameters.includes(name.slice(0, n))) no([`-${name.slice(0, n)}`, 'x', ...tail], `prefix -${name.slice(0, n)} of unsafe -${name}`)
    }
  }
  if (spec.switches) {
    no(['/deskclaw', ...tail], 'an unknown switch')
    for (const name of Object.keys(spec.unsafe ?? {}).filter((n) => !spec.parameters?.includes(n))) {
      no([`/${name}`, 'x', ...tail], `unsafe /${name}`)
      no([`/${name.toUpperCase()}:x`, ...tail], `unsafe /${name} in upper case with a value`)
    }
  }
  if (!spec.anyOption) {
    no(['--deskclaw-unknown', ...tail], 'an unknown long option')
    no(['--deskclaw-unknown=x', ...tail], 'an unknown long option with a value')
    const letter = unknownLetter(spec)
    if (letter) {
      no([`-${letter}`, ...tail], 'an unknown short option')
      const flag = spec.flags?.[0]
      if (flag) no([`-${flag}${letter}`, ...tail], 'a bundle hiding an unknown letter')
    }
  }
  for (const [name, role] of Object.entries(spec.unsafe ?? {})) {
    const value = role === 'code' ? 'sh' : role === 'written' ? 'out.txt' : 'x'
    if (name.length === 1) {
      no([`-${name}`, ...(role === 'flag' ? [] : [value]), ...tail], `unsafe -${name} (${role})`)
      no([`-${name}${value}`, ...tail], `unsafe -${name} with an attached value`)
      // Letters that take no value: a valued one would swallow the rest of the bundle as its value.
      for (const flag of [...(spec.flags ?? '')].filter((f) => !spec.valued?.includes(f)).slice(0, 3)) {
        if (flag === name) continue
        no([`-${flag}${name}`, value, ...tail], `a bundle hiding unsafe -${name}`)
        no([`-${name}${flag}`, ...tail], `a bundle starting with unsafe -${name}`)
      }
      continue
    }
    no([`--${name}`, ...tail], `unsafe --${name} (${role})`)
    no([`--${name}=${value}`, ...tail], `unsafe --${name} with =value`)
    no([`--${name}`, value, ...tail], `unsafe --${name} with a separate value`)
    // getopt and git take any unambiguous prefix: none may be allowed unless it is itself a safe option's full name.
    const exact = new Set([...(spec.long ?? []), ...(spec.longValued ?? [])])
    for (let n = 2; n < name.length; n++) {
      const prefix = name.slice(0, n)
      if (exact.has(prefix)) continue
      no([`--${prefix}`, ...(role === 'flag' ? [] : [`=${value}`].map((v) => v.slice(1))), ...tail], `prefix --${prefix} of unsafe --${name}`)
      no([`--${prefix}=${value}`, ...tail], `prefix --${prefix}= of unsafe --${name}`)
    }
  }
  // Extra operands of each role. A pattern comes first where the spec reads one.
  const lead = spec.patternFirst ? ['x'] : []
  const secrets = ['~/.ssh/id_rsa', '.env', 'config/master.key', `${fx.home}/.aws/credentials`, '~/.ssh/*']
  for (const secret of secrets) no([...lead, secret, ...tail], `a secret operand ${secret}`)
  if (spec.reads === 'contents') no([...lead, '~/projects/a/README.md'], 'a file outside the workspace')
  if (r.table === 'wrappers') {
    // A wrapper changes nothing about its command: a command that asks alone asks wrapped.
    for (const inner of [['rm', '-rf', 'build'], ['cat', '~/.ssh/id_rsa'], ['bash', 'x.sh'], ['python3', 'x.py']]) {
      out.push({ command: words([r.program, ...(safe[0] ?? []).slice(0, -1), ...inner]), entry, want: 'not-allow', why: 'a wrapped command that asks alone' })
    }
  }
  // A program that runs code runs a file given as a bare word: `python NAME` is not a version query.
  const runsCode = interpreterName(r.program) !== null || SHELLS.has(r.program)
  if (runsCode) {
    for (const name of ['version', 'help', 'build/app.js', 'script']) out.push({ command: `${r.program} ${name}`, entry, want: 'not-allow', why: 'a file operand of a program that runs code' })
    for (const verbose of ['-v', '-d', '-i', '-']) {
      const allowedForm = safe.some((f) => f.length === 1 && f[0] === verbose)
      if (!allowedForm) out.push({ command: `${r.program} ${verbose}`, entry, want: 'not-allow', why: 'a flag that goes on to read code from stdin' })
    }
    out.push({ command: `echo id | ${r.program} ${safe[0]?.join(' ') ?? ''}`.trim(), entry, want: safe[0] ? 'allow' : 'not-allow', why: 'a version query reads no stdin' })
  }
  return out
}

/**
 * Every interpreter and shell, whether or not it has a version spec (the interpreter table): a bare word is a file
 * it runs, verbose and debug flags go on to read code, inline code flags run code; only a version spec's own forms,
 * alone, are allowed.
 */
function generateRunsCode(program: string): Generated[] {
  const entry = `interpreters ${program}`
  const safe = versionSpecFor(program)?.safeForms ?? []
  const out: Generated[] = []
  const no = (command: string, why: string) => {
    const allowedForm = safe.some((f) => words([program, ...f]) === command)
    if (!allowedForm) out.push({ command, entry, want: 'not-allow', why })
  }
  for (const name of ['version', 'help', 'build/app.js', 'script', '-', '-v', '-d', '-i', '-V x.py', '--version x.py']) no(`${program} ${name}`, 'a file, stdin or verbose run of code')
  for (const flag of INTERPRETERS.get(program) ?? (SHELLS.has(program) ? new Set(['-c']) : new Set<string>())) no(`${program} ${flag} x`, `inline code ${flag}`)
  no(`echo id | ${program}`, 'code on stdin')
  no(`${program} <<< id`, 'code in a herestring')
  return out
}

let fx: Fixture
let engine: RiskEngine
const cases: Generated[] = []

beforeAll(async () => {
  fx = createFixture()
  engine = await RiskEngine.create({ home: fx.home })
  const seen = new Set<string>()
  const runsCode = [...new Set([...INTERPRETERS.keys(), ...SHELLS])].flatMap(generateRunsCode)
  for (const r of registeredSpecs()) {
    for (const c of [...generate(r, fx), ...runsCode.splice(0)]) {
      const key = `${c.shell ?? 'sh'}\u0000${c.command}\u0000${c.want}`
      if (seen.has(key)) continue
      seen.add(key)
      cases.push(c)
    }
  }
})

afterAll(() => {
  if (fx) disposeFixture(fx)
})

describe('spec-driven generator (every table, every entry)', () => {
  it('walks every table and enough cases', () => {
    const entries = registeredSpecs()
    const tables = new Set(entries.map((e) => e.table))
    expect([...tables].sort()).toEqual(['cmd', 'git', 'powershell', 'programs', 'version', 'wrappers'])
    expect(cases.filter((c) => c.entry.startsWith('interpreters ')).length, 'every interpreter and shell is walked').toBeGreaterThan(200)
    console.log(`spec generator: ${entries.length} entries walked, ${cases.length} cases (${cases.filter((c) => c.want === 'allow').length} safe forms)`)
    expect(cases.length).toBeGreaterThan(2000)
  })

  it('allows nothing a spec does not name, and everything its safe forms name', () => {
    const wrong: string[] = []
    for (const c of cases) {
      const verdict = engine.assessShell(c.command, { workspace: fx.ws, autonomy: 'supervised', ...(c.shell ? { shell: c.shell } : {}) }).verdict
      const ok = c.want === 'allow' ? verdict === 'allow' : verdict !== 'allow'
      if (!ok) wrong.push(`${verdict.padEnd(5)} (want ${c.want}) [${c.entry}] ${c.command.split(fx.home).join('<HOME>')} — ${c.why}`)
    }
    expect(wrong, `\n${wrong.slice(0, 80).join('\n')}\n`).toEqual([])
  })
})
