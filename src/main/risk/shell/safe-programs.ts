/**
 * Known-safe programs (docs/risk.md, "Known-safe programs"): a program runs without asking only
 * with options known to be safe for it — any other option or operand shape asks. Listing what is
 * safe, not what is dangerous, is what makes the list generalise: an option nobody thought of is
 * a question, not a silent write.
 *
 * Each spec also says what a path operand is read for: `contents` (cat, grep: reading outside the
 * workspace asks) or `names` (ls, du: listing a folder that is not secret-shaped is silent).
 */

import { type Args, type ProgramSpec, type ReadKind } from './spec'


/** Secret-shaped names of variables and settings (`GITHUB_TOKEN`, `_authToken`): their values are never printed silently. */
export const SECRET_SHAPED_NAME = /(key|token|secret|pass|pwd|cred|auth|session|cookie|private|cert|sign)/i

const VERSION = ['version', 'help']

/**
 * sed runs only print scripts (`sed -n 1,20p`, Codex's rule, plus `/regex/p` and `$p`): any other
 * script can write files (`w`) or run commands (`e`).
 */
const sedPrintOnly = (args: Args): string | null => {
  const flags = args.filter((a) => a !== null && a.startsWith('-'))
  if (!flags.includes('-n') || flags.some((f) => f !== '-n' && f !== '-E' && f !== '-r')) return 'sed can write files and run commands'
  const script = args.find((a) => a === null || !a.startsWith('-'))
  if (script === null || script === undefined || !/^(\d+|\$|\/[^/]*\/)(,(\d+|\$|\/[^/]*\/))?p$/.test(script)) {
    return 'only print scripts such as `sed -n 1,20p` are read-only'
  }
  return null
}

/** jq's `env` and `$ENV` print the environment; `import` and `include` load modules from a search path (docs/risk.md, item 7). */
const jqFilterCheck = (args: Args): string | null => {
  if (args.some((a) => a !== null && /(^|[^\w$])env\b|\$ENV\b|\$__loc__|input_filename/.test(a))) return 'reads the environment'
  if (args.some((a) => a !== null && /(^|[^\w$.])(import|include|modulemeta|get_search_list)\b/.test(a))) return 'loads modules from files on a search path'
  return null
}

/** Programs whose every option is safe: none writes, runs code or reaches the network. */
const anyOption = (reads: ReadKind, ...names: string[]) => names.map((name) => [name, { reads, anyOption: true }] as const)

export const SAFE_PROGRAMS: ReadonlyMap<string, ProgramSpec> = new Map<string, ProgramSpec>([
  ...anyOption('contents', 'cat', 'head', 'tail', 'wc', 'cut', 'nl', 'rev', 'tac', 'cmp', 'comm', 'od', 'hexdump', 'column'),
  ...anyOption('contents', 'fold', 'expand', 'unexpand', 'paste', 'join', 'fmt', 'strings', 'diff', 'sha1sum', 'sha224sum', 'sha256sum'),
  ...anyOption('contents', 'sha384sum', 'sha512sum', 'md5sum', 'cksum', 'b2sum', 'sum', 'zcat', 'bzcat', 'xzcat'),
  ...anyOption('contents', 'nm', 'objdump', 'readelf', 'size'),
  // macOS base64 writes with -o FILE: only the encoding options are known-safe.
  ...['base64', 'base32', 'basenc'].map((name) => [name, { reads: 'contents', flags: 'diDZ', valued: 'wb', long: ['decode', 'ignore-garbage', 'base64', 'base64url', 'base32', 'base32hex', 'base16', 'base2msbf', 'base2lsbf', 'z85', ...VERSION], longValued: ['wrap', 'break'] }] as const),
  ...['grep', 'egrep', 'fgrep', 'zgrep'].map((name) => [name, { reads: 'contents', anyOption: true, patternFirst: true }] as const),
  ...anyOption('names', 'ls', 'dir', 'vdir', 'stat', 'du', 'df', 'pwd', 'which', 'realpath', 'readlink', 'basename', 'dirname', 'test'),
  ['[', { reads: 'names', anyOption: true, safeForms: [['-d', 'src', ']']] }],
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
  }, safeForms: [['HOME'], ['PATH', 'SHELL']] }],
  // Without an operand ifconfig shows; `ifconfig eth0 down` or an address changes the network.
  ['ifconfig', { reads: 'none', flags: 'asvlL', maxOperands: 1 }],
  ['ss', { reads: 'none', flags: 'HnrapluftxwSseimoZzb0468E', valued: 'A', long: ['numeric', 'resolve', 'all', 'listening', 'processes', 'info', 'memory', 'options', 'extended', 'summary', 'tcp', 'udp', 'unix', 'raw', 'ipv4', 'ipv6', 'no-header', 'help', 'version'], longValued: ['query', 'family'] }],
  ['ulimit', { reads: 'none', flags: 'aHScdefilmnqrstuvxPT', maxOperands: 0 }],
  // `command -v NAME` looks a name up; `command NAME` runs it (judged as a wrapper, not here).
  ['command', { reads: 'none', flags: 'vV', maxOperands: 8, check: (args) => (args[0] === '-v' || args[0] === '-V' ? null : 'runs the command'), safeForms: [['-v', 'git'], ['-V', 'ls']] }],
  ['file', { reads: 'names', unsafe: { C: 'written', compile: 'written' }, roles: { f: 'read', 'files-from': 'read', m: 'read', 'magic-file': 'read' }, flags: 'bcdEhiklLNnprsSvz0', valued: 'eFfP', long: ['brief', 'mime', 'mime-type', 'mime-encoding', 'dereference', 'no-dereference', 'keep-going', 'special-files', 'uncompress', 'uncompress-noreport', 'no-pad', 'no-buffer', 'print0', 'preserve-date', 'raw', 'extension', 'apple', ...VERSION], longValued: ['exclude', 'separator', 'files-from', 'parameter'] }],
  ['tree', { reads: 'names', unsafe: { o: 'written' }, flags: 'adlfxpsughDFqNQrtvcUCASnJXi', valued: 'LPI', long: ['prune', 'noreport', 'du', 'si', 'dirsfirst', 'filesfirst', 'gitignore', 'matchdirs', 'ignore-case', 'inodes', 'device', 'noreport', ...VERSION], longValued: ['charset', 'filelimit', 'timefmt', 'sort', 'gitfile'] }],
  ['hostname', { reads: 'none', flags: 'fsiIdAayb', long: ['fqdn', 'long', 'short', 'ip-address', 'all-ip-addresses', 'domain', 'all-fqdns', 'alias', 'nis', 'yp', ...VERSION], maxOperands: 0 }],
  ['date', { reads: 'none', unsafe: { s: 'written', set: 'written' }, flags: 'uRI', valued: 'dr', long: ['utc', 'universal', 'rfc-email', 'debug', 'iso-8601', ...VERSION], longValued: ['date', 'reference', 'rfc-3339', 'iso-8601'], operand: /^\+/ }],
  ['sort', { reads: 'contents', unsafe: { o: 'written', output: 'written', 'compress-program': 'code' }, flags: 'bdfgiMhnRrVcCsuzm', valued: 'ktSTP', long: ['ignore-leading-blanks', 'dictionary-order', 'ignore-case', 'general-numeric-sort', 'ignore-nonprinting', 'month-sort', 'human-numeric-sort', 'numeric-sort', 'random-sort', 'reverse', 'version-sort', 'check', 'merge', 'stable', 'unique', 'zero-terminated', 'debug', ...VERSION], longValued: ['key', 'field-separator', 'buffer-size', 'temporary-directory', 'parallel', 'sort', 'random-source', 'check'] }],
  ['uniq', { reads: 'contents', flags: 'cdDiuz', valued: 'fsw', long: ['count', 'repeated', 'all-repeated', 'ignore-case', 'unique', 'zero-terminated', ...VERSION], longValued: ['skip-fields', 'skip-chars', 'check-chars', 'group', 'all-repeated'], maxOperands: 1, numeric: true, safeForms: [['-c', 'README.md']] }],
  ['xxd', { reads: 'contents', unsafe: { r: 'written' }, flags: 'aCeEipu', valued: 'cglosn', words: ['-len', '-seek', '-cols', '-groupsize', '-offset', '-name', '-ps', '-plain', '-include', '-bits', '-upper', '-autoskip', '-version', '-capitalize', '-EBCDIC'], numeric: false, maxOperands: 1 }],
  // printf reads -v only before its format: what follows the format is printed data.
  ['printf', { reads: 'none', maxOperands: 1000, unsafe: { v: 'text' }, dataFrom: 1 }],
  // sed's own check allows only print scripts (`sed -n 1,20p`); the script is its first operand.
  ['sed', { reads: 'contents', flags: 'nEr', patternFirst: true, check: sedPrintOnly, unsafe: { i: 'written', 'in-place': 'written', e: 'code', f: 'code', expression: 'code', file: 'code' }, safeForms: [['-n', '1,20p', 'README.md']] }],
  ['rg', { reads: 'contents', patternFirst: true, safeForms: [['TODO', 'src'], ['-n', 'answer', 'src'], ['--files']], unsafe: { pre: 'code', 'pre-glob': 'code', 'search-zip': 'code', z: 'code', 'hostname-bin': 'code' }, roles: { f: 'read', file: 'read', 'ignore-file': 'read' }, flags: 'abcFHhiIlLNnopqSsUuvwx0', valued: 'ABCdEegjMmrTt', long: ['files', 'hidden', 'no-ignore', 'no-ignore-vcs', 'no-ignore-parent', 'line-number', 'no-line-number', 'ignore-case', 'smart-case', 'case-sensitive', 'fixed-strings', 'word-regexp', 'line-regexp', 'files-with-matches', 'files-without-match', 'count', 'count-matches', 'json', 'vimgrep', 'no-heading', 'heading', 'follow', 'stats', 'trim', 'only-matching', 'multiline', 'pcre2', 'no-messages', 'column', 'no-column', 'invert-match', 'quiet', 'null', 'text', 'binary', 'type-list', 'no-filename', 'with-filename', 'byte-offset', 'passthru', 'unrestricted', 'crlf', 'debug', ...VERSION], longValued: ['glob', 'iglob', 'type', 'type-not', 'max-count', 'context', 'after-context', 'before-context', 'max-depth', 'color', 'colors', 'sort', 'sortr', 'replace', 'threads', 'encoding', 'max-filesize', 'regexp', 'max-columns', 'path-separator', 'engine', 'context-separator', 'field-match-separator', 'type-add'] }],
  // jq's `env` and `$ENV` print the environment, secrets included.
  ['jq', { reads: 'contents', patternFirst: true, check: jqFilterCheck, unsafe: { f: 'code', 'from-file': 'code', L: 'code', rawfile: 'read', slurpfile: 'read' }, flags: 'rcsnajeSCMhR', valued: '', long: ['raw-output', 'compact-output', 'slurp', 'null-input', 'ascii-output', 'join-output', 'exit-status', 'sort-keys', 'color-output', 'monochrome-output', 'tab', 'seq', 'stream', 'raw-input', 'raw-output0', ...VERSION], longValued: ['indent', 'arg', 'argjson'] }],
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
  ['cargo', { reads: 'none', long: ['list'], subcommands: [['install'], ['tree'], ['metadata'], ['search', '*']], check: (args) => (args[0] === 'install' && !args.includes('--list') ? 'installs a crate' : null), safeForms: [['install', '--list'], ['tree']] }],
  ['conda', { reads: 'none', flags: 'n', long: ['json', 'explicit', 'export'], longValued: ['name', 'prefix'], subcommands: [['list', '*'], ['info'], ['env', 'list']] }],
  ['pipx', { reads: 'none', long: ['json', 'short', 'include-injected'], subcommands: [['list']] }],
  ['snap', { reads: 'none', long: ['all'], subcommands: [['list', '*'], ['info', '*'], ['version']] }],
  ['flatpak', { reads: 'none', long: ['app', 'runtime', 'user', 'system', 'columns'], longValued: ['columns'], subcommands: [['list'], ['info', '*']] }],
  ['rpm', { reads: 'none', flags: 'qailfdc', long: ['query', 'all', 'info', 'list', 'version', 'queryformat'] }]
])

/**
 * Programs whose arguments cannot make them write or run code. Only these stay known-safe under
 * `xargs`, which appends words from its input that nobody has seen (`… | xargs sort` may get `-o x`).
 */
export function ignoresArguments(program: string): boolean {
  const spec = SAFE_PROGRAMS.get(program)
  return spec?.anyOption === true && !spec.check && !spec.subcommands
}

/** `pip3`, `pip3.11` behave as pip; `python3 -m pip` is an interpreter. */
export function safeSpecFor(program: string): ProgramSpec | undefined {
  const direct = SAFE_PROGRAMS.get(program)
  if (direct) return direct
  if (/^pip[0-9.]*$/.test(program)) return SAFE_PROGRAMS.get('pip')
  return undefined
}
