/**
 * Windows `cmd.exe` lines, read with cmd's own rules (docs/risk.md, "The shell that runs it"):
 * `&`, `&&`, `|`, `||` separate commands wherever they stand outside double quotes — a single
 * quote is an ordinary character there, so `echo 'a & del /s /q C:\'` runs `del` — and `^`
 * escapes the next character. Bash's reading of the same text proves nothing.
 */
import type { ProgramSpec, ReadKind } from './spec'

export interface CmdStatement {
  /** Words as cmd passes them (double quotes kept, for the Windows catalogue). */
  tokens: string[]
  text: string
  start: number
  end: number
}

export function cmdStatements(line: string): CmdStatement[] {
  const statements: CmdStatement[] = []
  let start = 0
  let quoted = false
  const push = (end: number) => {
    const text = line.slice(start, end)
    const tokens = text.trim().match(/"[^"]*"?|(?:\^.|[^\s"])+/g) ?? []
    if (tokens.length > 0) statements.push({ tokens, text: text.trim(), start, end })
  }
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (c === '^' && !quoted) {
      i++
      continue
    }
    if (c === '"') quoted = !quoted
    else if (!quoted && (c === '&' || c === '|' || c === '\n')) {
      push(i)
      if (line[i + 1] === c) i++
      start = i + 1
    }
  }
  push(line.length)
  return statements
}

/**
 * cmd's own commands that only read or print (`dir`, `type`, `ver`, `where`), as specs like every
 * other allow path (docs/risk.md, "Program specs"): the switches known to be safe for each. `date`
 * and `time` with an operand set the clock and `path` with one sets PATH, so only their display
 * forms run; `tasklist /s` and `systeminfo /s` ask another machine.
 */
const cmd = (reads: ReadKind, switches: string[], extra: Partial<ProgramSpec> = {}): ProgramSpec => ({ reads, switches, ...extra })

export const CMD_SPECS: ReadonlyMap<string, ProgramSpec> = new Map<string, ProgramSpec>([
  ['dir', cmd('names', ['s', 'b', 'a', 'w', 'd', 'o', 'p', 'q', 'l', 'n', 'x', 'c', 'r', 't', '4', '?'], { safeForms: [[], ['/s', '/b', 'src']] })],
  ['type', cmd('contents', [], { safeForms: [['README.md']] })],
  ['more', cmd('contents', ['e', 'c', 'p', 's'], { safeForms: [['README.md']] })],
  ['echo', { reads: 'none', anyOption: true, safeForms: [['hello']] }],
  ['ver', cmd('none', [], { maxOperands: 0, safeForms: [[]] })],
  ['vol', cmd('none', [], { maxOperands: 1, operand: /^[a-z]:$/i, safeForms: [[], ['C:']] })],
  ['cd', cmd('names', ['d'], { maxOperands: 1, safeForms: [[], ['src']] })],
  ['chdir', cmd('names', ['d'], { maxOperands: 1, safeForms: [[]] })],
  ['where', cmd('none', ['r', 'q', 'f', 't'], { safeForms: [['git']] })],
  ['whoami', cmd('none', ['user', 'groups', 'priv', 'all', 'fo', 'nh', 'upn', 'fqdn', 'logonid'], { maxOperands: 0, safeForms: [[], ['/all']] })],
  ['hostname', cmd('none', [], { maxOperands: 0, safeForms: [[]] })],
  ['tasklist', cmd('none', ['v', 'svc', 'm', 'fo', 'nh', 'fi', 'apps'], { maxOperands: 0, unsafe: { s: 'network', u: 'network', p: 'network' }, safeForms: [[], ['/v', '/fo:csv']] })],
  ['systeminfo', cmd('none', ['fo', 'nh'], { maxOperands: 0, unsafe: { s: 'network', u: 'network', p: 'network' }, safeForms: [[]] })],
  ['findstr', cmd('contents', ['b', 'e', 'l', 'r', 's', 'i', 'x', 'v', 'n', 'm', 'o', 'p', 'offline', 'c', 'd'], { patternFirst: true, unsafe: { f: 'read', g: 'read' }, safeForms: [['TODO', 'README.md']] })],
  ['find', cmd('contents', ['v', 'c', 'n', 'i', 'off'], { patternFirst: true, safeForms: [['"TODO"', 'README.md']] })],
  ['tree', cmd('names', ['f', 'a'], { safeForms: [[], ['/f', 'src']] })],
  ['date', cmd('none', ['t'], { maxOperands: 0, unsafe: { set: 'written' }, safeForms: [['/t']], check: (args) => (args.length === 1 ? null : 'date without /t sets the clock') })],
  ['time', cmd('none', ['t'], { maxOperands: 0, safeForms: [['/t']], check: (args) => (args.length === 1 ? null : 'time without /t sets the clock') })],
  ['path', cmd('none', [], { maxOperands: 0, safeForms: [[]] })]
])
