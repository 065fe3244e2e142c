/**
 * PowerShell's and cmd's read-only commands on the sh side (`Get-ChildItem`, `gc`, `dir /s`), as specs like every
 * other allow path (docs/risk.md, "Program specs"): by lower-case name, what a path operand is read for and the
 * parameters (`-Recurse`) or switches (`/s`) known to be safe. Anything else asks.
 */
import type { Args, ProgramSpec, ReadKind } from './spec'
import { unquote, windowsProgramName } from './windows'

/** The env: drive lists every environment variable, secrets included. */
const noEnvDrive = (args: Args): string | null => (args.some((a) => a !== null && /^env:/i.test(unquote(a))) ? 'the env: drive lists every environment variable' : null)

/** Parameters that only choose what is listed or how; none writes, runs code or reaches the network. */
const LISTING = ['path', 'literalpath', 'filter', 'include', 'exclude', 'name', 'force']
const ITEMS = [...LISTING, 'recurse', 'directory', 'file', 'hidden', 'depth', 'attributes', 'readonly', 'system']
const CONTENT = [...LISTING, 'totalcount', 'head', 'first', 'tail', 'last', 'raw', 'encoding', 'wait', 'delimiter']
const SEARCH = [...LISTING, 'pattern', 'simplematch', 'casesensitive', 'list', 'notmatch', 'context', 'allmatches', 'encoding', 'raw', 'quiet']
/** Parameters that reach another machine or act with other credentials. */
const REMOTE = { computername: 'network', credential: 'network', cimsession: 'network' } as const
/** cmd's own read-only switches (`dir /s /b /ad /o-d /t:w`). */
const DIR_SWITCHES = ['s', 'b', 'a*', 'w', 'd', 'o*', 'p', 'q', 'l', 'n', 'x', 'c', 'r', 't*', '4', '?']

const ps = (reads: ReadKind, parameters: readonly string[], extra: Partial<ProgramSpec> = {}): ProgramSpec => ({ reads, parameters, check: noEnvDrive, unsafe: REMOTE, ...extra })
const alias = (names: string[], spec: ProgramSpec) => names.map((name) => [name, spec] as const)

export const WINDOWS_READ_SPECS: ReadonlyMap<string, ProgramSpec> = new Map<string, ProgramSpec>([
  ...alias(['get-childitem', 'gci'], ps('names', ITEMS, { safeForms: [[], ['-Recurse', 'src']] })),
  // cmd's dir (PowerShell's alias of Get-ChildItem takes its parameters too).
  ['dir', ps('names', ITEMS, { switches: DIR_SWITCHES, safeForms: [[], ['/s', '/b', 'src']] })],
  ...alias(['get-item', 'gi', 'test-path', 'resolve-path'], ps('names', ITEMS, { safeForms: [['README.md']] })),
  ...alias(['get-location', 'gl', 'get-date', 'get-host', 'get-computerinfo', 'get-psdrive', 'get-volume', 'measure-object'], ps('none', ['format', 'uformat', 'name', 'line', 'word', 'character', 'sum', 'average', 'maximum', 'minimum', 'property'], { safeForms: [[]] })),
  ...alias(['get-process', 'gps'], ps('none', ['name', 'id', 'processname', 'module'], { safeForms: [[], ['-Name', 'node']] })),
  ...alias(['get-service', 'gsv'], ps('none', ['name', 'displayname', 'status', 'include', 'exclude'], { safeForms: [[]] })),
  ...alias(['get-command', 'gcm'], ps('none', ['name', 'commandtype', 'module', 'all'], { safeForms: [['git']] })),
  ...alias(['get-content', 'gc'], ps('contents', CONTENT, { safeForms: [['README.md'], ['-Head', '5', 'README.md']] })),
  // cmd's type reads files given as Windows paths or with /x switches (otherwise `type` is bash's builtin).
  ['type', ps('contents', [], { switches: [], safeForms: [['src\\index.ts']] })],
  ...alias(['select-string', 'sls'], ps('contents', SEARCH, { patternFirst: true, safeForms: [['TODO', 'README.md']] })),
  ['get-filehash', ps('contents', [...LISTING, 'algorithm'], { safeForms: [['README.md']] })],
  ['where', ps('none', [], { switches: ['r', 'q', 'f', 't'], safeForms: [['/q', 'git']] })],
  ['ver', { reads: 'none', maxOperands: 0, safeForms: [[]] }],
  ['systeminfo', { reads: 'none', switches: ['fo', 'nh'], maxOperands: 0, unsafe: { s: 'network', u: 'network', p: 'network' }, safeForms: [[]] }],
  ['tasklist', { reads: 'none', switches: ['v', 'svc', 'm', 'fo', 'nh', 'fi', 'apps'], maxOperands: 0, unsafe: { s: 'network', u: 'network', p: 'network' }, safeForms: [[], ['/v']] }],
  // Any other ipconfig switch changes the network configuration (/release, /renew, /flushdns).
  ['ipconfig', { reads: 'none', switches: ['all', 'displaydns', '?'], maxOperands: 0, unsafe: { release: 'network', renew: 'network', flushdns: 'written', registerdns: 'network' }, safeForms: [[], ['/all']] }]
])

/**
 * The read spec of a PowerShell or cmd command named on the sh side, or null. `type` and `where` are cmd's only
 * with `/x` switches or Windows paths: otherwise they are bash's builtin and `where` on Unix.
 */
export function windowsReadSpec(program: string, args: ReadonlyArray<string>): ProgramSpec | null {
  const spec = WINDOWS_READ_SPECS.get(windowsProgramName(program))
  if (!spec) return null
  const lower = program.toLowerCase()
  if ((lower === 'type' || lower === 'where') && !args.some((a) => /^\/[a-z]/i.test(a) || /^[a-z]:/i.test(a) || a.includes('\\'))) return null
  return spec
}
