/**
 * Known-safe programs (docs/risk.md, "Known-safe programs"): a program runs without asking only
 * with options known to be safe for it — any other option or operand shape asks. Listing what is
 * safe, not what is dangerous, is what makes the list generalise: an option nobody thought of is
 * a question, not a silent write.
 *
 * Each spec also says what a path operand is read for: `contents` (cat, grep: reading outside the
 * workspace asks) or `names` (ls, du: listing a folder that is not secret-shaped is silent).
 */

export type ReadKind = 'contents' | 'names' | 'none'

export interface SafeSpec {
  /** What a path operand is read for. */
  reads: ReadKind
  /** Every option of the program is known to be safe (none writes, runs code or reaches the network). */
  anyOption?: boolean
  /** Short options without a value (`-la` bundles them). */
  flags?: string
  /** Short options that take a value, attached (`-n5`) or as the next word. */
  valued?: string
  /** Long options without a value. */
  long?: readonly string[]
  /** Long options that take a value (`--format=x` or `--format x`). */
  longValued?: readonly string[]
  /** Single-dash long options (`-version`, find's predicates). */
  words?: readonly string[]
  /** `-NUM` is allowed (`head -20`). */
  numeric?: boolean
  /** At most this many operands (hostname 0: an operand renames the machine). */
  maxOperands?: number
  /** Operands must look like this (date's `+FORMAT`; a bare operand sets the clock). */
  operand?: RegExp
  /** The first operand is a pattern, not a file (grep, rg), unless -e or -f gives the pattern. */
  patternFirst?: boolean
  /** A last check of the whole argument list (what the option lists cannot say: `ps e` prints environments). */
  check?: (args: Args) => string | null
  /** Only these operand sequences are allowed (`ip addr`, `docker ps`); a trailing '*' allows more operands. */
  subcommands?: ReadonlyArray<readonly string[]>
}

import { unquote, windowsProgramName } from './windows'

type Args = ReadonlyArray<string | null>

/** Secret-shaped names of variables and settings (`GITHUB_TOKEN`, `_authToken`): their values are never printed silently. */
export const SECRET_SHAPED_NAME = /(key|token|secret|pass|pwd|cred|auth|session|cookie|private|cert|sign)/i

/** Why the arguments are not all known-safe for this program, or null when they are. */
export function unsafeArguments(program: string, spec: SafeSpec, args: Args): string | null {
  const operands: Array<string | null> = []
  let afterDashes = false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === null) {
      // A computed word is judged by its own findings; as an option it could be anything.
      if (!spec.anyOption) operands.push(null)
      continue
    }
    if (afterDashes || arg === '-' || !arg.startsWith('-') || spec.anyOption) {
      if (arg === '--' && !afterDashes) afterDashes = true
      else if (afterDashes || !arg.startsWith('-') || arg === '-') operands.push(arg)
      continue
    }
    if (arg === '--') {
      afterDashes = true
      continue
    }
    if (arg.startsWith('--')) {
      const [name, inline] = splitLong(arg)
      // Some options take an optional value (`--stat`, `--stat=120`): a flag without `=`, valued with it.
      if (inline === null && spec.long?.includes(name)) continue
      if (spec.longValued?.includes(name)) {
        if (inline === null) i++
        continue
      }
      if (spec.long?.includes(name)) return `${program} ${arg}: the option takes no value`
      return `${program} ${arg} is not an option known to be safe`
    }
    if (spec.words?.includes(arg)) continue
    if (spec.numeric && /^-\d+$/.test(arg)) continue
    const letters = arg.slice(1)
    for (let j = 0; j < letters.length; j++) {
      const letter = letters[j]!
      if (spec.valued?.includes(letter)) {
        if (j === letters.length - 1) i++ // the value is the next word
        break
      }
      if (!spec.flags?.includes(letter)) return `${program} -${letter} is not an option known to be safe`
    }
  }
  if (spec.maxOperands !== undefined && operands.length > spec.maxOperands) {
    return spec.maxOperands === 0 ? `${program} with an operand changes something` : `${program} with ${operands.length} operands may write the last one`
  }
  if (spec.operand && operands.some((o) => o === null || !spec.operand!.test(o))) return `${program} with that operand changes something`
  const extra = spec.check?.(args)
  if (extra) return `${program}: ${extra}`
  if (spec.subcommands) {
    // Exactly these operands; a trailing '*' allows any further operands (`npm view PKG`).
    const known = spec.subcommands.some((sub) => {
      const open = sub.at(-1) === '*'
      const fixed = open ? sub.slice(0, -1) : sub
      return fixed.every((word, k) => operands[k] === word) && (open ? operands.length >= fixed.length : operands.length === fixed.length)
    })
    if (!known) return `${program} ${operands.filter((o) => o !== null).slice(0, 2).join(' ')} is not a read-only subcommand`
  }
  return null
}

function splitLong(arg: string): [string, string | null] {
  const eq = arg.indexOf('=')
  return eq < 0 ? [arg.slice(2), null] : [arg.slice(2, eq), arg.slice(eq + 1)]
}

const VERSION = ['version', 'help']

/** Programs whose every option is safe: none writes, runs code or reaches the network. */
const anyOption = (reads: ReadKind, ...names: string[]) => names.map((name) => [name, { reads, anyOption: true }] as const)

export const SAFE_PROGRAMS: ReadonlyMap<string, SafeSpec> = new Map<string, SafeSpec>([
  ...anyOption('contents', 'cat', 'head', 'tail', 'wc', 'cut', 'nl', 'rev', 'tac', 'cmp', 'comm', 'od', 'hexdump', 'column'),
  ...anyOption('contents', 'fold', 'expand', 'unexpand', 'paste', 'join', 'fmt', 'strings', 'diff', 'sha1sum', 'sha224sum', 'sha256sum'),
  ...anyOption('contents', 'sha384sum', 'sha512sum', 'md5sum', 'cksum', 'b2sum', 'sum', 'zcat', 'bzcat', 'xzcat'),
  ...anyOption('contents', 'nm', 'objdump', 'readelf', 'size'),
  // macOS base64 writes with -o FILE: only the encoding options are known-safe.
  ...['base64', 'base32', 'basenc'].map((name) => [name, { reads: 'contents', flags: 'diDZ', valued: 'wb', long: ['decode', 'ignore-garbage', 'base64', 'base64url', 'base32', 'base32hex', 'base16', 'base2msbf', 'base2lsbf', 'z85', ...VERSION], longValued: ['wrap', 'break'] }] as const),
  ...['grep', 'egrep', 'fgrep', 'zgrep'].map((name) => [name, { reads: 'contents', anyOption: true, patternFirst: true }] as const),
  ...anyOption('names', 'ls', 'dir', 'vdir', 'stat', 'du', 'df', 'pwd', 'which', 'realpath', 'readlink', 'basename', 'dirname', 'test', '['),
  ...anyOption('names', 'cd', 'pushd', 'popd', 'type', 'whereis', 'lsattr', 'namei'),
  // Waiting is harmless: sleep takes durations only (a bare word is refused, so nothing hides in it);
  // `:` and `wait` are shell builtins that do nothing but expand their words (judged on their own).
  ['sleep', { reads: 'none', long: ['help', 'version'], operand: /^(\d+(\.\d+)?[smhd]?|\.\d+[smhd]?|inf(inity)?)$/i }],
  ...anyOption('none', ':', 'wait'),
  // tr's operands are character sets, not files (it reads its input).
  ...anyOption('none', 'echo', 'tr', 'true', 'false', 'seq', 'whoami', 'id', 'uname', 'free', 'uptime', 'nproc', 'lscpu', 'lsblk', 'arch', 'groups'),
  ...anyOption('none', 'tty', 'locale', 'getconf', 'logname', 'users', 'who', 'w', 'last', 'cal', 'ncal', 'expr', 'factor', 'numfmt', 'tput'),
  ...anyOption('none', 'lsusb', 'lspci', 'lsmod', 'lshw', 'dmidecode', 'nvidia-smi', 'vmstat', 'iostat', 'mpstat', 'sensors', 'getent'),
  ...anyOption('none', 'pgrep', 'pidof', 'pstree', 'jobs', 'sw_vers', 'lsb_release', 'nslookup', 'netstat', 'lsof'),
  // `ps e`, `ps -E`: the environment of every process, secrets included.
  // BSD-style options come as one first word without a dash (`ps auxe`); -E on macOS. Both `e`s show environments.
  ['ps', { reads: 'none', anyOption: true, check: (args) => {
    const bsd = args[0] !== null && args[0] !== undefined && /^[a-zA-Z]+$/.test(args[0]) && args[0].includes('e')
    return bsd || args.some((a) => a !== null && /^-[A-Za-z]*E/.test(a)) ? 'shows the environment of processes, secrets included' : null
  } }],
  ['printenv', { reads: 'none', anyOption: true, check: (args) => {
    const names = args.filter((a) => a !== null && !a.startsWith('-'))
    if (names.length === 0) return 'prints every environment variable, secrets included'
    return names.some((n) => SECRET_SHAPED_NAME.test(n!)) ? 'prints a secret-shaped variable' : null
  } }],
  // Without an operand ifconfig shows; `ifconfig eth0 down` or an address changes the network.
  ['ifconfig', { reads: 'none', flags: 'asvlL', maxOperands: 1 }],
  ['ss', { reads: 'none', flags: 'HnrapluftxwSseimoZzb0468E', valued: 'A', long: ['numeric', 'resolve', 'all', 'listening', 'processes', 'info', 'memory', 'options', 'extended', 'summary', 'tcp', 'udp', 'unix', 'raw', 'ipv4', 'ipv6', 'no-header', 'help', 'version'], longValued: ['query', 'family'] }],
  ['ulimit', { reads: 'none', flags: 'aHScdefilmnqrstuvxPT', maxOperands: 0 }],
  ['command', { reads: 'none', flags: 'vV', maxOperands: 8 }],
  ['file', { reads: 'names', flags: 'bcdEhiklLNnprsSvz0', valued: 'eFfP', long: ['brief', 'mime', 'mime-type', 'mime-encoding', 'dereference', 'no-dereference', 'keep-going', 'special-files', 'uncompress', 'uncompress-noreport', 'no-pad', 'no-buffer', 'print0', 'preserve-date', 'raw', 'extension', 'apple', ...VERSION], longValued: ['exclude', 'separator', 'files-from', 'parameter'] }],
  ['tree', { reads: 'names', flags: 'adlfxpsughDFqNQrtvcUCASnJXi', valued: 'LPI', long: ['prune', 'noreport', 'du', 'si', 'dirsfirst', 'filesfirst', 'gitignore', 'matchdirs', 'ignore-case', 'inodes', 'device', 'noreport', ...VERSION], longValued: ['charset', 'filelimit', 'timefmt', 'sort', 'gitfile'] }],
  ['hostname', { reads: 'none', flags: 'fsiIdAayb', long: ['fqdn', 'long', 'short', 'ip-address', 'all-ip-addresses', 'domain', 'all-fqdns', 'alias', 'nis', 'yp', ...VERSION], maxOperands: 0 }],
  ['date', { reads: 'none', flags: 'uRI', valued: 'dr', long: ['utc', 'universal', 'rfc-email', 'debug', 'iso-8601', ...VERSION], longValued: ['date', 'reference', 'rfc-3339', 'iso-8601'], operand: /^\+/ }],
  ['sort', { reads: 'contents', flags: 'bdfgiMhnRrVcCsuzm', valued: 'ktSTP', long: ['ignore-leading-blanks', 'dictionary-order', 'ignore-case', 'general-numeric-sort', 'ignore-nonprinting', 'month-sort', 'human-numeric-sort', 'numeric-sort', 'random-sort', 'reverse', 'version-sort', 'check', 'merge', 'stable', 'unique', 'zero-terminated', 'debug', ...VERSION], longValued: ['key', 'field-separator', 'buffer-size', 'temporary-directory', 'parallel', 'sort', 'random-source', 'check'] }],
  ['uniq', { reads: 'contents', flags: 'cdDiuz', valued: 'fsw', long: ['count', 'repeated', 'all-repeated', 'ignore-case', 'unique', 'zero-terminated', ...VERSION], longValued: ['skip-fields', 'skip-chars', 'check-chars', 'group', 'all-repeated'], maxOperands: 1, numeric: true }],
  ['xxd', { reads: 'contents', flags: 'aCeEipu', valued: 'cglosn', words: ['-len', '-seek', '-cols', '-groupsize', '-offset', '-name', '-ps', '-plain', '-include', '-bits', '-upper', '-autoskip', '-version', '-capitalize', '-EBCDIC'], numeric: false, maxOperands: 1 }],
  ['printf', { reads: 'none', maxOperands: 1000 }],
  // sed's own check allows only print scripts (`sed -n 1,20p`); the script is its first operand.
  ['sed', { reads: 'contents', anyOption: true, patternFirst: true }],
  ['rg', { reads: 'contents', patternFirst: true, flags: 'abcFHhiIlLNnopqSsUuvwx0', valued: 'ABCdEegjMmrTt', long: ['files', 'hidden', 'no-ignore', 'no-ignore-vcs', 'no-ignore-parent', 'line-number', 'no-line-number', 'ignore-case', 'smart-case', 'case-sensitive', 'fixed-strings', 'word-regexp', 'line-regexp', 'files-with-matches', 'files-without-match', 'count', 'count-matches', 'json', 'vimgrep', 'no-heading', 'heading', 'follow', 'stats', 'trim', 'only-matching', 'multiline', 'pcre2', 'no-messages', 'column', 'no-column', 'invert-match', 'quiet', 'null', 'text', 'binary', 'type-list', 'no-filename', 'with-filename', 'byte-offset', 'passthru', 'unrestricted', 'crlf', 'debug', ...VERSION], longValued: ['glob', 'iglob', 'type', 'type-not', 'max-count', 'context', 'after-context', 'before-context', 'max-depth', 'color', 'colors', 'sort', 'sortr', 'replace', 'threads', 'encoding', 'max-filesize', 'regexp', 'max-columns', 'path-separator', 'engine', 'context-separator', 'field-match-separator', 'type-add'] }],
  // jq's `env` and `$ENV` print the environment, secrets included.
  ['jq', { reads: 'contents', patternFirst: true, check: (args) => (args.some((a) => a !== null && /(^|[^\w$])env\b|\$ENV\b|\$__loc__|input_filename/.test(a)) ? 'reads the environment' : null), flags: 'rcsnajeSCMhR', valued: '', long: ['raw-output', 'compact-output', 'slurp', 'null-input', 'ascii-output', 'join-output', 'exit-status', 'sort-keys', 'color-output', 'monochrome-output', 'tab', 'seq', 'stream', 'raw-input', 'raw-output0', ...VERSION], longValued: ['indent', 'arg', 'argjson'] }],
  ['top', { reads: 'none', flags: 'bcHiSse', valued: 'dnpuUowlo', maxOperands: 0 }],
  ['docker', { reads: 'none', flags: 'aqv', valued: 'nf', long: ['all', 'quiet', 'no-trunc', 'digests', ...VERSION], longValued: ['format', 'filter', 'last'], subcommands: [['ps'], ['images'], ['image', 'ls'], ['container', 'ls'], ['version'], ['info'], ['volume', 'ls'], ['network', 'ls'], ['context', 'ls'], ['stats', '*']] }],
  ['podman', { reads: 'none', flags: 'aqv', valued: 'nf', long: ['all', 'quiet', 'no-trunc', ...VERSION], longValued: ['format', 'filter', 'last'], subcommands: [['ps'], ['images'], ['version'], ['info']] }],
  ['ip', { reads: 'none', flags: 'sdhcj4', valued: '', long: [], words: ['-br', '-brief', '-color', '-json', '-details', '-stats', '-4', '-6', '-o', '-oneline'], subcommands: [['a'], ['addr'], ['address'], ['a', 'show', '*'], ['addr', 'show', '*'], ['address', 'show', '*'], ['r'], ['route'], ['route', 'show', '*'], ['r', 'show', '*'], ['route', 'get', '*'], ['l'], ['link'], ['link', 'show', '*'], ['neigh'], ['neigh', 'show', '*'], ['n']] }],
  ['npm', { reads: 'none', flags: 'gv', long: ['json', 'long', 'parseable', 'global', 'all', 'production', 'dev', 'version', 'help'], longValued: ['depth', 'omit'], subcommands: [[], ['ls', '*'], ['list', '*'], ['ll', '*'], ['la', '*'], ['outdated', '*'], ['view', '*'], ['info', '*'], ['show', '*'], ['root'], ['prefix'], ['bin'], ['config', 'list'], ['config', 'get', '*'], ['explain', '*'], ['why', '*'], ['audit'], ['doctor'], ['ping']], check: (args) => (args[0] === 'config' && args.slice(2).some((a) => a !== null && SECRET_SHAPED_NAME.test(a)) ? 'prints a secret-shaped setting' : null) }],
  ['pip', { reads: 'none', flags: 'lV', long: ['local', 'user', 'outdated', 'uptodate', 'not-required', 'version', 'help', 'files', 'verbose'], longValued: ['format'], subcommands: [[], ['list'], ['freeze'], ['show', '*'], ['check'], ['inspect']] }],
  ['dpkg', { reads: 'none', flags: 'lLsS', long: ['list', 'listfiles', 'status', 'search', 'print-architecture', 'version', 'help'] }],
  ['apt', { reads: 'none', long: ['installed', 'upgradable', 'all-versions', 'manual-installed'], subcommands: [['list', '*'], ['show', '*'], ['search', '*'], ['policy', '*']] }],
  ['brew', { reads: 'none', flags: '1lv', long: ['versions', 'formula', 'cask', 'installed', 'json', 'version'], subcommands: [['list', '*'], ['ls', '*'], ['info', '*'], ['--version'], ['config'], ['deps', '*'], ['leaves'], ['outdated'], ['search', '*']] }],
  // Package listings of other managers; bare `yarn` / `pnpm` install, so a subcommand is required.
  ['yarn', { reads: 'none', long: ['json', 'pattern'], longValued: ['depth', 'pattern'], subcommands: [['list', '*'], ['ls', '*'], ['info', '*'], ['why', '*'], ['outdated', '*'], ['licenses', 'list']] }],
  ['pnpm', { reads: 'none', flags: 'gr', long: ['json', 'long', 'parseable', 'global', 'recursive', 'prod', 'dev'], longValued: ['depth', 'filter'], subcommands: [['ls', '*'], ['list', '*'], ['ll', '*'], ['why', '*'], ['outdated', '*'], ['root'], ['licenses', 'list']] }],
  ['gem', { reads: 'none', flags: 'ldr', long: ['local', 'details', 'remote', 'versions'], subcommands: [['list', '*'], ['info', '*'], ['environment'], ['env'], ['outdated'], ['which', '*']] }],
  ['cargo', { reads: 'none', long: ['list'], subcommands: [['install'], ['tree'], ['metadata'], ['search', '*']], check: (args) => (args[0] === 'install' && !args.includes('--list') ? 'installs a crate' : null) }],
  ['conda', { reads: 'none', flags: 'n', long: ['json', 'explicit', 'export'], longValued: ['name', 'prefix'], subcommands: [['list', '*'], ['info'], ['env', 'list']] }],
  ['pipx', { reads: 'none', long: ['json', 'short', 'include-injected'], subcommands: [['list']] }],
  ['snap', { reads: 'none', long: ['all'], subcommands: [['list', '*'], ['info', '*'], ['version']] }],
  ['flatpak', { reads: 'none', long: ['app', 'runtime', 'user', 'system', 'columns'], longValued: ['columns'], subcommands: [['list'], ['info', '*']] }],
  ['rpm', { reads: 'none', flags: 'qailfdc', long: ['query', 'all', 'info', 'list', 'version', 'queryformat'] }]
])

/** `pip3`, `pip3.11` behave as pip; `python3 -m pip` is an interpreter. */
export function safeSpecFor(program: string): SafeSpec | undefined {
  const direct = SAFE_PROGRAMS.get(program)
  if (direct) return direct
  if (/^pip[0-9.]*$/.test(program)) return SAFE_PROGRAMS.get('pip')
  return undefined
}

/**
 * Version and help queries of common tools (`node --version`, `go version`, `java -version`):
 * printing a version runs no project code. The program must be known to answer them plainly.
 */
const VERSION_ANSWERERS = new Set([
  'node', 'nodejs', 'npm', 'npx', 'pnpm', 'yarn', 'bun', 'deno', 'python', 'python3', 'pip', 'pip3', 'pipx', 'uv', 'poetry', 'ruby', 'gem',
  'bundle', 'perl', 'php', 'composer', 'go', 'rustc', 'cargo', 'rustup', 'java', 'javac', 'mvn', 'gradle', 'kotlin', 'scala', 'dotnet',
  'gcc', 'g++', 'cc', 'clang', 'clang++', 'make', 'cmake', 'ninja', 'docker', 'podman', 'kubectl', 'helm', 'terraform', 'git', 'gh',
  'curl', 'wget', 'ssh', 'openssl', 'bash', 'zsh', 'fish', 'sh', 'tmux', 'vim', 'nvim', 'emacs', 'code', 'swift', 'xcodebuild', 'brew',
  'apt', 'dpkg', 'rpm', 'openssl', 'lua', 'julia', 'elixir', 'erl', 'ghc', 'stack', 'zig', 'nasm', 'ffmpeg', 'convert', 'magick', 'sqlite3', 'psql',
  'mysql', 'redis-cli', 'mongo', 'mongod', 'nginx', 'tsc', 'eslint', 'prettier', 'jest', 'vitest', 'pytest', 'tar', 'zip', 'unzip', 'rsync'
])

export function isVersionOrHelpQuery(program: string, args: Args): boolean {
  if (!VERSION_ANSWERERS.has(program) && !/^(python|pip|ruby|perl|php|lua)[0-9.]+$/.test(program)) return false
  if (program === 'kubectl' && args[0] === 'version') return args.length <= 2 && args.slice(1).every((a) => a === '--client' || a === '--short')
  if (args.length !== 1) return false
  const only = args[0]
  if (only === null || only === undefined) return false
  if (program === 'kubectl' && args.length <= 2 && args[0] === 'version' && args.slice(1).every((a) => a === '--client' || a === '--short')) return true
  if (program === 'go' || program === 'docker' || program === 'podman' || program === 'kubectl' || program === 'helm' || program === 'terraform' || program === 'dotnet' || program === 'git' || program === 'openssl') {
    if (only === 'version') return true
  }
  if (program === 'java' || program === 'javac' || program === 'scala' || program === 'kotlin') {
    if (only === '-version' || only === '--version' || only === '-help') return true
  }
  return only === '--version' || only === '-v' || only === '-V' || only === '--help' || only === '-h'
}

/**
 * PowerShell and cmd read-only commands (`Get-ChildItem`, `gc`, `dir /s`), by lower-case name:
 * what their path parameters are read for, and the parameters known to be safe.
 */
const PS_PARAMETERS = new Set([
  '-path', '-literalpath', '-recurse', '-force', '-filter', '-include', '-exclude', '-name', '-directory', '-file', '-hidden',
  '-depth', '-totalcount', '-head', '-first', '-tail', '-last', '-raw', '-encoding', '-attributes', '-readonly', '-system',
  '-pattern', '-simplematch', '-casesensitive', '-list', '-notmatch', '-context', '-allmatches', '-id', '-processname', '-module',
  '-commandtype', '-all', '-format', '-uformat', '-displayname', '-status', '-delimiter', '-wait'
])

const WINDOWS_READS: ReadonlyMap<string, ReadKind> = new Map<string, ReadKind>([
  ['get-childitem', 'names'], ['gci', 'names'], ['dir', 'names'], ['get-item', 'names'], ['gi', 'names'], ['test-path', 'names'],
  ['resolve-path', 'names'], ['get-location', 'none'], ['gl', 'none'], ['get-process', 'none'], ['gps', 'none'], ['get-service', 'none'],
  ['gsv', 'none'], ['get-date', 'none'], ['get-command', 'none'], ['gcm', 'none'], ['get-host', 'none'], ['get-content', 'contents'],
  ['gc', 'contents'], ['type', 'contents'], ['select-string', 'contents'], ['sls', 'contents'], ['get-filehash', 'contents'],
  ['measure-object', 'none'], ['get-computerinfo', 'none'], ['get-psdrive', 'none'], ['get-volume', 'none'], ['where', 'none'],
  ['ver', 'none'], ['tasklist', 'none'], ['ipconfig', 'none'], ['systeminfo', 'none']
])

/** A PowerShell or cmd read-only command, or null. `dir` and `type` are cmd's when given `/x` switches or Windows paths. */
export function windowsReadKind(program: string, args: ReadonlyArray<string>): ReadKind | null {
  const kind = WINDOWS_READS.get(windowsProgramName(program))
  if (kind === undefined) return null
  const lower = program.toLowerCase()
  if ((lower === 'type' || lower === 'where') && !args.some((a) => /^\/[a-z]/i.test(a) || /^[a-z]:/i.test(a) || a.includes('\\'))) return null
  return kind
}

/** Why a Windows read command's parameters are not known-safe, or null. */
export function unsafeWindowsParameters(program: string, args: ReadonlyArray<string>): string | null {
  const lowerProgram = program.toLowerCase()
  if (lowerProgram === 'ipconfig' && args.some((a) => !/^\/(all|displaydns|\?)$/i.test(a))) return 'ipconfig changes the network configuration with that switch'
  if (lowerProgram === 'tasklist' && args.some((a) => /^\/s$/i.test(a))) return 'tasklist /s queries another machine'
  // The env: drive lists every environment variable, secrets included.
  if (args.some((a) => /^env:/i.test(unquote(a)))) return `${program} env: lists every environment variable`
  for (const arg of args) {
    const lower = arg.toLowerCase()
    if (lower.startsWith('-') && !PS_PARAMETERS.has(lower.split(':')[0]!)) return `${program} ${arg} is not a parameter known to be safe`
    if (/^\/[a-z]/i.test(arg) && !/^\/(s|b|a[a-z-]*|w|d|o[a-z-]*|p|q|l|n|x|c|r|t[:a-z]*|4)$/i.test(arg)) return `${program} ${arg} is not a switch known to be safe`
  }
  return null
}
