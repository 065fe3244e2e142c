import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import type { Parser } from 'web-tree-sitter'
import { beforeAll, describe, expect, it } from 'vitest'
import { RiskEngine } from '../../../src/main/risk'
import { isPlainCommand, loadCrossCheck, readBashView, readTreeSitterView, type CrossCheckFinding, type Span } from '../../../src/main/risk/shell/cross-check'
import { loadBashParser } from '../../../src/main/risk/shell/parser'
import { prepareSource } from '../../../src/main/risk/shell/source'

/**
 * Differential fuzz of the two shell parsers (docs/risk.md, "A second, independent parser"):
 * generated command lines full of the places where parsers drift apart — escaped blanks, control
 * characters, `#` inside and outside words, quotes, continuations, substitutions, groups.
 *
 * 1. Whenever tree-sitter's view and the bash tokenizer's view differ (commands, their words,
 *    comments), or bash would see a control character or an unterminated construct, the engine
 *    never says `allow`. The comparison here is written independently of the engine's own.
 * 2. Real bash is the oracle, on a bounded subset: each line runs under a DEBUG trap that prints
 *    each simple command bash is about to run and then skips it (`extdebug`), with an empty PATH
 *    and no environment, so nothing runs. Every command bash would run must be one the tokenizer
 *    found; and when the engine says `allow`, one tree-sitter found too.
 */

const SEED = 20261123
const LINES = 3000
const ORACLE_LINES = 300

let engine: RiskEngine
let parser: Parser
let workspace: string
let exhaustive: (command: string) => CrossCheckFinding[]

beforeAll(async () => {
  engine = await RiskEngine.create({ home: '/home/tester' })
  parser = await loadBashParser()
  exhaustive = await loadCrossCheck({ exhaustive: true })
  workspace = mkdtempSync(join(tmpdir(), 'deskclaw-fuzz-'))
})

// ───────────────────────────── the grammar ─────────────────────────────

const PROGRAMS = ['ls', 'cat', 'echo', 'pwd', 'grep', 'head', 'wc', 'rm', 'touch', 'git']
const ARGS = ['-la', '-n', '5', 'README.md', 'src', 'build', '-rf', 'status', 'a', 'b', 'x.txt']
/** Glued into words: quotes, escapes, expansions, and `#` where it does not start a comment. */
const PIECES = [
  "'a b'", '"a b"', "'#x'", '"#x"', '"$x"', '\\#', '#', 'a#b', '\\ ', '\\\t', '\\;', '\\\\', '$#', '${x#y}', '${#x}',
  '$((1+2))', '$(ls)', '`pwd`', '$(echo a; rm x)', '*.md', '{a,b}', '~', '\\\r', '\\\n', 'x=1', '"a\rb"', "'\v'"
]
const BLANKS = [' ', ' ', ' ', '\t', '  ', ' \\\n', '\\\n ']
/** What bash does not take for a blank, though a parser might. */
const PSEUDO_BLANKS = ['\r', '\v', '\f', '\x1b', '\x7f', '\b', '\\ ', '\\\t', '\\\r', '\r\n', '\u00a0', '\\\r\n']
const OPERATORS = [' ; ', ';', ' && ', ' || ', ' | ', '\n', '\r\n', ' & ']
/** What follows a `#`: if it is not a comment, these run. */
const TAILS = ['#;rm -rf build', '# ls\nrm -rf build', '#x', '# ; touch pwned', '#\\\nrm x', '#|touch y']

const pick = (list: readonly string[]) => fc.constantFrom(...list)
const word = fc.oneof(
  { weight: 4, arbitrary: pick(ARGS) },
  { weight: 2, arbitrary: fc.array(fc.oneof(pick(ARGS), pick(PIECES)), { minLength: 1, maxLength: 3 }).map((p) => p.join('')) }
)
const gap = fc.oneof({ weight: 6, arbitrary: pick(BLANKS) }, { weight: 1, arbitrary: pick(PSEUDO_BLANKS) })
const simple = fc
  .tuple(pick(PROGRAMS), fc.array(fc.tuple(gap, word), { maxLength: 3 }), fc.option(fc.tuple(gap, pick(TAILS)), { freq: 3 }))
  .map(([program, args, tail]) => program + args.map(([g, w]) => g + w).join('') + (tail ? tail.join('') : ''))
const command = fc.oneof(
  { weight: 6, arbitrary: simple },
  { weight: 1, arbitrary: simple.map((c) => `( ${c} )`) },
  { weight: 1, arbitrary: simple.map((c) => `{ ${c}; }`) },
  { weight: 1, arbitrary: simple.map((c) => `! ${c}`) }
)
const lineOf = (unit: fc.Arbitrary<string>) =>
  fc.tuple(unit, fc.array(fc.tuple(pick(OPERATORS), unit), { maxLength: 3 })).map(([first, rest]) => first + rest.map(([op, c]) => op + c).join(''))
/** Lines of simple commands, groups and lists: what bash's trace prints back word for word. */
const line = lineOf(command)

/** Redirections, heredocs, substitutions and compound commands around them, for the differential test. */
const construct = fc.oneof(
  simple.map((c) => `${c} > out.txt`),
  simple.map((c) => `${c} 2>&1`),
  simple.map((c) => `${c} 2>/dev/null`),
  simple.map((c) => `x=1 ${c}`),
  simple.map((c) => `cat <<EOF\n${c}\nEOF\n`),
  simple.map((c) => `cat <<'EOF'\n$(${c})\nEOF\n`),
  simple.map((c) => `cat <<EOF | wc -l\n$(${c})\nEOF\n`),
  simple.map((c) => `echo $(${c})`),
  simple.map((c) => `diff <(${c}) b`),
  fc.tuple(simple, simple).map(([a, b]) => `if ${a}; then ${b}; fi`),
  fc.tuple(simple, simple).map(([a, b]) => `for x in a b; do ${a}; ${b}; done`),
  simple.map((c) => `case $x in a|b) ${c};; *) ls;; esac`),
  simple.map((c) => `f() { ${c}; }`),
  simple.map((c) => `[[ -f a && b < c ]] && ${c}`)
)
/** Lines the cross-check does not compare (`isPlainCommand`: plain words, simple quotes, list operators) and their neighbours. */
const PLAIN_CHARS = 'abcxyz019_./,:=+@%~^*?-'.split('')
const plainWord = fc.oneof(
  { weight: 3, arbitrary: fc.array(pick(PLAIN_CHARS), { minLength: 1, maxLength: 6 }).map((c) => c.join('')) },
  { weight: 2, arbitrary: pick([...PROGRAMS, ...ARGS, 'in', 'do', 'done', 'then', 'fi', 'esac', 'time', 'export', 'test', ':', '~', '-', '--', '9=a', 'a-b=c', '=', '==', 'a+=b']) },
  { weight: 1, arbitrary: fc.constantFrom("'a b'", '"a b"', "'#;$x\\'", '"#;x"', "''", '""', '"a\rb"', "'\n'", 'a"b"c', "x'y'") }
)
const plainName = fc.oneof(
  { weight: 4, arbitrary: pick(PROGRAMS) },
  { weight: 4, arbitrary: fc.tuple(pick('abz09_./'.split('')), fc.array(pick('abz09_./,:+@%^-'.split('')), { maxLength: 5 })).map(([c, rest]) => c + rest.join('')) },
  { weight: 1, arbitrary: plainWord }
)
const plainLine = fc
  .array(fc.tuple(plainName, fc.array(plainWord, { maxLength: 3 }), pick([' ; ', ';', ' && ', ' || ', ' | ', ' & ', '&', '|'])), { minLength: 1, maxLength: 3 })
  .map((commands) => commands.map(([name, words, op], i) => [name, ...words].join(' ') + (i < commands.length - 1 ? op : '')).join(''))

const richLine = lineOf(fc.oneof({ weight: 3, arbitrary: command }, { weight: 2, arbitrary: construct }))

// ───────────────────────────── the two views ─────────────────────────────

/** Builtins tree-sitter reads as constructs of their own (declaration_command, test_command), not commands. */
const NOT_COMMANDS_IN_TREE_SITTER = new Set(['export', 'declare', 'typeset', 'local', 'readonly', 'unset', '['])

const key = (spans: Span[]) => spans.map((s) => `${s.start}-${s.end}`).join(',')
const textOf = (text: string, spans: Span[]) => spans.map((s) => text.slice(s.start, s.end).replace(/\\\n/g, '')).join(' ')

interface Views {
  differ: string | null
  bashCommands: string[]
  treeSitterCommands: string[]
}

function views(text: string): Views {
  const bash = readBashView(text)
  const source = prepareSource(text)
  const tree = parser.parse(source.text)!
  try {
    const ts = readTreeSitterView(source, tree.rootNode)
    const bashCommands = bash.commands.filter((c) => !(c.name && NOT_COMMANDS_IN_TREE_SITTER.has(c.name)))
    const b = bashCommands.map((c) => key(c.words)).sort()
    const t = ts.commands.map(key).sort()
    const bc = bash.comments.map((c) => c.start).sort((x, y) => x - y)
    const tc = ts.comments.map((c) => c.start).sort((x, y) => x - y)
    let differ: string | null = null
    if (ts.hasError) differ = 'tree-sitter: parse error'
    else if (bash.controls.length > 0) differ = 'control character outside quotes'
    else if (bash.incomplete) differ = `bash: ${bash.incomplete.what}`
    else if (b.join('|') !== t.join('|')) differ = `commands: bash [${b.join(' | ')}] vs tree-sitter [${t.join(' | ')}]`
    else if (bc.join() !== tc.join()) differ = `comments: bash [${bc.join()}] vs tree-sitter [${tc.join()}]`
    return {
      differ,
      bashCommands: bash.commands.map((c) => textOf(text, c.words)),
      treeSitterCommands: ts.commands.map((c) => textOf(text, c))
    }
  } finally {
    tree.delete()
  }
}

const show = (text: string) => JSON.stringify(text)

// ───────────────────────────── bash as the oracle ─────────────────────────────

const BASH = '/bin/bash'
const bashVersion = spawnSync(BASH, ['-c', 'echo ${BASH_VERSINFO[0]}'], { encoding: 'utf8' })
const haveBash = bashVersion.status === 0 && Number(bashVersion.stdout.trim()) >= 4

// eslint-disable-next-line no-control-regex -- bash's own quoting byte, \x01
const CTLESC = /\x01([\x01\x7f])/g
/** bash's blanks are space and tab only: `\s` would also take CR, VT and FF. */
const LEADING_ASSIGNMENTS = /^(?:[A-Za-z_][A-Za-z0-9_]*=(?:[^ \t"'\\]|\\.|"[^"]*"|'[^']*')*(?:[ \t]+|$))+/s

/** The simple commands bash would run for `text`, as it prints them (`$BASH_COMMAND`); none of them runs. */
function bashWouldRun(text: string, cwd: string): string[] {
  const trace = `trap '[[ -z $__go ]] || { printf "%s\\036" "$BASH_COMMAND" >&3; false; }' DEBUG; shopt -s extdebug; set -T; __go=1\n`
  const result = spawnSync(BASH, ['--norc', '--noprofile', '-c', trace + text], {
    cwd,
    env: { PATH: '/nonexistent', HOME: cwd, LC_ALL: 'C' },
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    timeout: 5000
  })
  const out = result.output?.[3]?.toString('utf8') ?? ''
  return (
    out
      .split('\u001e')
      .slice(0, -1)
      // bash marks DEL and \x01 in its own text with a \x01 (CTLESC) before them.
      .map((c) => c.replace(CTLESC, '$1'))
      // Assignments before the command are not among the tokenizer's command words.
      .map((c) => c.replace(LEADING_ASSIGNMENTS, ''))
      .filter((c) => c !== '')
  )
}

/** `need` ⊆ `have`, as multisets: what is missing. */
function missing(need: string[], have: string[]): string[] {
  const left = new Map<string, number>()
  for (const h of have) left.set(h, (left.get(h) ?? 0) + 1)
  return need.filter((n) => {
    const count = left.get(n) ?? 0
    if (count === 0) return true
    left.set(n, count - 1)
    return false
  })
}

// ───────────────────────────── the tests ─────────────────────────────

describe('differential fuzz: tree-sitter-bash against the bash tokenizer', () => {
  it(`in ${LINES} generated lines, the engine never allows a line the two parsers read differently`, () => {
    let differing = 0
    let allowed = 0
    fc.assert(
      fc.property(richLine, (text) => {
        const { differ } = views(text)
        const verdict = engine.assessShell(text, { workspace, autonomy: 'supervised' }).verdict
        if (differ) differing++
        if (verdict === 'allow') allowed++
        if (differ) expect(verdict, `${show(text)}: ${differ}`).not.toBe('allow')
      }),
      { seed: SEED, numRuns: LINES }
    )
    // The generator must reach both sides of the property, or it proves nothing.
    expect(differing).toBeGreaterThan(LINES / 10)
    expect(allowed).toBeGreaterThan(LINES / 20)
  })
})

describe('the lines the cross-check does not compare', () => {
  it(`read the same in both parsers (${LINES} generated lines)`, () => {
    let plain = 0
    fc.assert(
      fc.property(plainLine, (text) => {
        if (!isPlainCommand(text)) return // compared as usual
        plain++
        expect(exhaustive(text), show(text)).toEqual([])
        expect(readBashView(text), show(text)).toMatchObject({ words: [], comments: [], controls: [], incomplete: null })
      }),
      { seed: SEED + 2, numRuns: LINES }
    )
    expect(plain).toBeGreaterThan(LINES / 2)
  })
})

describe.skipIf(!haveBash)('bash as the oracle', () => {
  it(`for ${ORACLE_LINES} lines: bash runs only commands the tokenizer found, and only ones tree-sitter found when the engine allows`, () => {
    const cwd = mkdtempSync(join(tmpdir(), 'deskclaw-oracle-'))
    const texts = fc.sample(line, { seed: SEED + 1, numRuns: ORACLE_LINES })
    const lexerMisses: string[] = []
    const engineMisses: string[] = []
    let ran = 0
    for (const text of texts) {
      const runs = bashWouldRun(text, cwd)
      ran += runs.length
      const v = views(text)
      const notFound = missing(runs, v.bashCommands)
      if (notFound.length > 0) lexerMisses.push(`${show(text)}: bash runs ${JSON.stringify(notFound)}, tokenizer saw ${JSON.stringify(v.bashCommands)}`)
      const verdict = engine.assessShell(text, { workspace, autonomy: 'supervised' }).verdict
      if (verdict === 'allow') {
        const unseen = missing(runs, v.treeSitterCommands)
        if (unseen.length > 0) engineMisses.push(`${show(text)}: allowed, but bash runs ${JSON.stringify(unseen)}`)
      }
    }
    expect(ran).toBeGreaterThan(ORACLE_LINES)
    expect(lexerMisses).toEqual([])
    expect(engineMisses).toEqual([])
  })

  it('knows where bash starts a comment: the desync examples', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'deskclaw-oracle-'))
    // bash reads `a<TAB>#`, `a<CR>#`, … as one word, so `rm` after the `;` runs.
    for (const text of ['echo a\\\t#;rm -rf build', 'echo a\r#;rm -rf build', 'echo a\v#;rm -rf build', 'echo a\f#;rm -rf build', 'echo a \r#;rm -rf build']) {
      expect(bashWouldRun(text, cwd), show(text)).toContain('rm -rf build')
      expect(readBashView(text).commands.map((c) => textOf(text, c.words))).toContain('rm -rf build')
    }
    // …and where it does: after a blank, an operator or at the start.
    for (const text of ['echo a #;rm -rf build', 'echo a;#;rm -rf build', '#;rm -rf build', 'echo a\t#;rm -rf build']) {
      expect(bashWouldRun(text, cwd), show(text)).not.toContain('rm -rf build')
      expect(readBashView(text).commands.map((c) => textOf(text, c.words))).not.toContain('rm -rf build')
    }
  })
})
