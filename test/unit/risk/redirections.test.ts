import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RiskEngine } from '../../../src/main/risk'
import { fileObjectFinding } from '../../../src/main/risk/paths'
import { REDIRECT_OPERATORS, type RedirectEffect } from '../../../src/main/risk/shell/redirects'

/**
 * Redirections are reads and writes like operands (docs/risk.md, "Redirections, hard links,
 * special files"), and only what is known is allowed. The generator walks every operator of the
 * analyzer's own table × every position a redirection can take × targets made for real on disk:
 * outside the workspace, secrets, a hard-linked file, a FIFO, a socket, never allowed; a plain
 * workspace file read by a known-safe program, allowed, so the test fails both ways.
 */

let root = ''
let HOME = ''
let WS = ''
let engine: RiskEngine
let socketServer: net.Server | null = null

interface Target {
  name: string
  /** How the target is written in the command (relative to the workspace, absolute or with ~). */
  spelling: string
  /** The canonical path the judgement must record. */
  real: () => string
  /** The finding that must say why (null: a plain file, nothing to say). */
  rule: string | null
}

const TARGETS: Target[] = [
  { name: 'a plain workspace file', spelling: 'README.md', real: () => path.join(WS, 'README.md'), rule: null },
  { name: 'a plain workspace file, absolute', spelling: '@WS/src/index.ts', real: () => path.join(WS, 'src', 'index.ts'), rule: null },
  { name: 'a file outside the workspace', spelling: '../elsewhere/notes.txt', real: () => path.join(HOME, 'elsewhere', 'notes.txt'), rule: 'path.outside-read' },
  { name: 'a file outside the workspace, absolute', spelling: '@HOME/elsewhere/notes.txt', real: () => path.join(HOME, 'elsewhere', 'notes.txt'), rule: 'path.outside-read' },
  { name: 'a secret in the home folder', spelling: '~/.ssh/id_rsa', real: () => path.join(HOME, '.ssh', 'id_rsa'), rule: 'path.sensitive' },
  { name: 'a secret in the workspace', spelling: '.env', real: () => path.join(WS, '.env'), rule: 'path.sensitive' },
  { name: 'a hard-linked workspace file', spelling: 'linked.txt', real: () => path.join(WS, 'linked.txt'), rule: 'path.hard-link' },
  { name: 'a FIFO in the workspace', spelling: 'pipe', real: () => path.join(WS, 'pipe'), rule: 'path.special-file' },
  { name: 'a socket in the workspace', spelling: 'sock', real: () => path.join(WS, 'sock'), rule: 'path.special-file' }
]

interface Position {
  name: string
  /** The command with the redirection `r` in this position. */
  place: (r: string) => string
  /** The program that runs is known-safe and nothing else here asks. */
  plainReadRuns: boolean
}

const POSITIONS: Position[] = [
  { name: 'after the command', place: (r) => `cat ${r}`, plainReadRuns: true },
  { name: 'before the command', place: (r) => `${r} cat`, plainReadRuns: true },
  // tree-sitter reads the words after the target as more targets, bash as arguments: the second parser asks.
  { name: 'between operands', place: (r) => `wc -l ${r} README.md`, plainReadRuns: false },
  { name: 'first in a pipeline', place: (r) => `cat ${r} | wc -l`, plainReadRuns: true },
  { name: 'last in a pipeline', place: (r) => `echo hi | wc -l ${r}`, plainReadRuns: true },
  { name: 'after &&', place: (r) => `ls && cat ${r}`, plainReadRuns: true },
  { name: 'inside a subshell', place: (r) => `(cat ${r})`, plainReadRuns: true },
  { name: 'on a subshell', place: (r) => `(cat) ${r}`, plainReadRuns: true },
  { name: 'on a group', place: (r) => `{ cat; } ${r}`, plainReadRuns: true },
  { name: 'in bash -c', place: (r) => `bash -c '${r.replace(/'/g, '"')} cat'`, plainReadRuns: true },
  { name: 'after env', place: (r) => `env LC_ALL=C cat ${r}`, plainReadRuns: true },
  { name: 'after timeout', place: (r) => `timeout 5 cat ${r}`, plainReadRuns: true },
  { name: 'after sudo', place: (r) => `sudo cat ${r}`, plainReadRuns: false },
  { name: 'on exec', place: (r) => `exec ${r}`, plainReadRuns: false }
]

/** Commands around a command, nested at random by the fast-check property: none of them asks by itself. */
const OUTER: Array<(command: string) => string> = [
  (c) => `( ${c} )`, // spaced: `((` would be arithmetic
  (c) => `{ ${c}; }`,
  (c) => `${c} | wc -l`,
  (c) => `echo hi | ${c}`,
  (c) => `ls && ${c}`,
  (c) => `true; ${c}`,
  (c) => (c.includes("'") ? `( ${c} )` : `bash -c '${c}'`)
]

/**
 * The descriptors an operator may be written with: none, its default one, and another. An
 * operator starting with `&` takes none. tree-sitter reads `cat 0<f` as the operand `0` and then
 * `<f`, which the second parser sees otherwise, so the default descriptor is only held to "never allowed".
 */
function descriptorsOf(operator: string): Array<{ fd: string; plainReadRuns: boolean }> {
  if (operator.startsWith('&')) return [{ fd: '', plainReadRuns: true }]
  return [
    { fd: '', plainReadRuns: true },
    { fd: operator.startsWith('<') ? '0' : '1', plainReadRuns: false },
    { fd: '3', plainReadRuns: true }
  ]
}

/** Ways to write the target word; the quotes are removed before it is judged. */
const SPELLINGS = [(t: string) => t, (t: string) => ` ${t}`, (t: string) => `"${t}"`, (t: string) => ` '${t}'`]

function written(target: Target): string {
  return target.spelling.replace('@WS', WS).replace('@HOME', HOME)
}

function redirection(operator: string, fd: string, target: Target, spelling: number): string {
  // A quoted `~` is not expanded: that would be another file, so home-relative targets stay unquoted.
  const spellings = target.spelling.startsWith('~') ? SPELLINGS.slice(0, 2) : SPELLINGS
  return `${fd}${operator}${spellings[spelling % spellings.length]!(written(target))}`
}

const FILE_OPERATORS = [...REDIRECT_OPERATORS].filter(([, effect]) => !effect.closes)

interface Case {
  command: string
  effect: RedirectEffect
  target: Target
  /** A plain target here must run: read-only operator, known-safe program, plain spelling. */
  mustRun: boolean
}

function allCases(): Case[] {
  const cases: Case[] = []
  let spelling = 0
  for (const [operator, effect] of FILE_OPERATORS) {
    for (const { fd, plainReadRuns: fdRuns } of descriptorsOf(operator)) {
      for (const position of POSITIONS) {
        for (const target of TARGETS) {
          const command = position.place(redirection(operator, fd, target, spelling++))
          const mustRun = target.rule === null && !effect.writes && fdRuns && position.plainReadRuns
          cases.push({ command, effect, target, mustRun })
        }
      }
    }
  }
  return cases
}

function assess(command: string) {
  return engine.assessShell(command, { workspace: WS, autonomy: 'supervised' })
}

/** Why a case fails its principle, or null when it holds. */
function violation(c: Case): string | null {
  const a = assess(c.command)
  const rules = a.findings.map((f) => `${f.verdict} ${f.rule}`)
  const said = `${c.command} → ${a.verdict} [${rules.join(', ')}]`
  if (!a.explain.targets.includes(c.target.real())) return `${said}: ${c.target.name} is not among the targets judged`
  if (c.target.rule !== null) {
    if (a.verdict === 'allow') return `${said}: ${c.target.name} was allowed`
    const expected = c.effect.writes && c.target.rule === 'path.outside-read' ? /^(path\.outside-workspace|shell\.redirect-write)$/ : new RegExp(`^${c.target.rule.replace('.', '\\.')}$`)
    if (!a.findings.some((f) => expected.test(f.rule))) return `${said}: no ${c.target.rule} finding for ${c.target.name}`
    return null
  }
  if (c.effect.writes) return a.verdict !== 'allow' && a.findings.some((f) => f.rule === 'shell.redirect-write') ? null : `${said}: a write was not asked about`
  if (c.mustRun && a.verdict !== 'allow') return `${said}: a plain workspace read did not run`
  return null
}

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'deskclaw-redirect-')))
  HOME = path.join(root, 'home', 'tester')
  WS = path.join(HOME, 'project')
  fs.mkdirSync(path.join(WS, 'src'), { recursive: true })
  fs.mkdirSync(path.join(HOME, 'elsewhere'), { recursive: true })
  fs.mkdirSync(path.join(HOME, '.ssh'), { recursive: true })
  fs.writeFileSync(path.join(WS, 'README.md'), '# project\n')
  fs.writeFileSync(path.join(WS, 'src', 'index.ts'), 'export {}\n')
  fs.writeFileSync(path.join(WS, '.env'), 'API_KEY=not-a-real-key\n')
  fs.writeFileSync(path.join(HOME, '.ssh', 'id_rsa'), 'not a real key\n')
  fs.writeFileSync(path.join(HOME, 'elsewhere', 'notes.txt'), 'notes\n')
  fs.writeFileSync(path.join(HOME, 'elsewhere', 'original.txt'), 'the same file under two names\n')
  fs.linkSync(path.join(HOME, 'elsewhere', 'original.txt'), path.join(WS, 'linked.txt'))
  execFileSync('mkfifo', [path.join(WS, 'pipe')])
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(path.join(WS, 'sock'), resolve))
  socketServer = server
  engine = await RiskEngine.create({ home: HOME })
})

afterAll(async () => {
  await new Promise<void>((resolve) => (socketServer ? socketServer.close(() => resolve()) : resolve()))
  if (root) fs.rmSync(root, { recursive: true, force: true })
})

describe('redirections: only what is known is allowed', () => {
  it('the fixtures are what they claim to be', () => {
    expect(fs.lstatSync(path.join(WS, 'README.md')).nlink).toBe(1)
    expect(fs.lstatSync(path.join(WS, 'linked.txt')).nlink).toBe(2)
    expect(fs.lstatSync(path.join(WS, 'pipe')).isFIFO()).toBe(true)
    expect(fs.lstatSync(path.join(WS, 'sock')).isSocket()).toBe(true)
  })

  it('every operator × position × target: bad targets never run, plain workspace reads do, writes ask', () => {
    const cases = allCases()
    // 9 file operators, 2 or 3 descriptors each, 14 positions, 9 targets.
    expect(FILE_OPERATORS.length).toBeGreaterThanOrEqual(9)
    expect(cases.length).toBeGreaterThan(2_500)
    expect(cases.filter((c) => c.mustRun).length).toBeGreaterThanOrEqual(80)
    const failures = cases.map(violation).filter((v): v is string => v !== null)
    expect(failures.slice(0, 20), `${failures.length} of ${cases.length} cases fail`).toEqual([])
  })

  it('nested positions and random spellings (fast-check): the same principle holds', () => {
    const operatorArb = fc.constantFrom(...FILE_OPERATORS)
    const positionArb = fc.constantFrom(...POSITIONS.filter((p) => p.name !== 'on exec'))
    const outerArb = fc.array(fc.constantFrom(...OUTER), { maxLength: 3 })
    let runs = 0
    fc.assert(
      fc.property(operatorArb, positionArb, outerArb, fc.constantFrom(...TARGETS), fc.nat(), ([operator, effect], position, outer, target, spelling) => {
        const command = outer.reduce((text, wrap) => wrap(text), position.place(redirection(operator, '', target, spelling)))
        const mustRun = target.rule === null && !effect.writes && position.plainReadRuns
        expect(violation({ command, effect, target, mustRun })).toBeNull()
        runs++
      }),
      { seed: 20261127, numRuns: 400 }
    )
    expect(runs).toBe(400)
  })

  it('closing or copying a descriptor names no file', () => {
    for (const [operator, effect] of REDIRECT_OPERATORS) {
      const words = effect.closes ? [''] : effect.duplicates ? ['2', '3-'] : []
      for (const word of words) {
        const a = assess(`cat ${operator}${word}`)
        expect(a.verdict, `cat ${operator}${word}: ${a.findings.map((f) => f.rule).join(', ')}`).toBe('allow')
        expect(a.explain.targets).toEqual([])
      }
    }
  })

  it('an operand tree-sitter swallows into a redirection is still judged as one', () => {
    const a = assess('cat < README.md ~/.ssh/id_rsa')
    expect(a.verdict).toBe('ask')
    expect(a.findings.map((f) => f.rule)).toContain('path.sensitive')
    expect(a.explain.targets).toContain(path.join(HOME, '.ssh', 'id_rsa'))
  })

  it('an operator the table does not know asks, and a target known only at run time asks', () => {
    expect(assess('cat < $f').verdict).toBe('ask')
    expect(assess('cat < "$(echo README.md)"').verdict).toBe('ask')
  })
})

describe('path-subject tools: hard links and special files', () => {
  const fileRead = (p: string) => engine.assess({ tool: 'file_read', category: 'fs', access: 'read', subject: { kind: 'path', value: p, arg: 'path' } }, { workspace: WS, autonomy: 'supervised' })

  it('file_read of a hard-linked file or a FIFO asks; of a plain file it runs', () => {
    expect(fileRead('README.md').verdict).toBe('allow')
    expect(fileRead('linked.txt').findings.map((f) => f.rule)).toContain('path.hard-link')
    expect(fileRead('linked.txt').verdict).toBe('ask')
    expect(fileRead('pipe').findings.map((f) => f.rule)).toContain('path.special-file')
    expect(fileRead('pipe').verdict).toBe('ask')
  })

  it('a device is a special file, except the harmless streams', () => {
    const ctx = { home: HOME, workspace: WS }
    expect(fileObjectFinding('/dev/null', ctx)).toBeNull()
    expect(fileObjectFinding('/dev/urandom', ctx)).toBeNull()
    if (fs.existsSync('/dev/ptmx')) expect(fileObjectFinding('/dev/ptmx', ctx)?.rule).toBe('path.special-file')
    expect(fileObjectFinding(path.join(WS, 'missing.txt'), ctx)).toBeNull()
  })
})
