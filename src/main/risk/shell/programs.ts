/**
 * What we know about programs, by name. The known-safe list is deliberately small and
 * argument-checked (Codex, OpenClaw safe bins): a program is only "safe" when it cannot write,
 * run other programs or reach the network with the arguments given.
 */

import { unsafeArguments, type SafeSpec } from './safe-programs'

/** Returns why the arguments are not read-only, or null when they are. */
type ArgCheck = (args: ReadonlyArray<string | null>) => string | null

const anyOf =
  (forbidden: RegExp, why: string): ArgCheck =>
  (args) =>
    args.some((arg) => arg !== null && forbidden.test(arg)) ? why : null

const none: ArgCheck = () => null

/**
 * Options as getopt reads them: short flags bundle (`-uo` is `-u -o`) and long options may be
 * abbreviated (`--out` is `--output`, `--compress` is `--compress-program`). Checking only the
 * spelled-out forms let `sort -uo x` and `sort --compress-prog=sh` through (found by the oracle).
 */
const option =
  (spec: { short?: string; long?: string[] }, why: string): ArgCheck =>
  (args) => {
    for (const arg of args) {
      if (arg === null || !arg.startsWith('-') || arg === '-' || arg === '--') continue
      if (arg.startsWith('--')) {
        const name = arg.slice(2).split('=')[0]!
        if (name.length > 0 && spec.long?.some((long) => long.startsWith(name))) return why
      } else if (spec.short && [...arg.slice(1)].some((letter) => spec.short!.includes(letter))) return why
    }
    return null
  }

const positionals = (args: ReadonlyArray<string | null>): Array<string | null> => {
  const out: Array<string | null> = []
  let afterDashes = false
  for (const arg of args) {
    if (!afterDashes && arg === '--') afterDashes = true
    else if (afterDashes || arg === null || !arg.startsWith('-') || arg === '-') out.push(arg)
  }
  return out
}

const sedPrintOnly: ArgCheck = (args) => {
  // Codex allows only `sed -n N[,M]p`; we also accept /regex/p and $p, still print-only.
  const flags = args.filter((a) => a !== null && a.startsWith('-'))
  if (!flags.includes('-n') || flags.some((f) => f !== '-n' && f !== '-E' && f !== '-r')) return 'sed can write files and run commands'
  const script = positionals(args)[0]
  if (script === null || script === undefined || !/^(\d+|\$|\/[^/]*\/)(,(\d+|\$|\/[^/]*\/))?p$/.test(script)) {
    return 'only print scripts such as `sed -n 1,20p` are read-only'
  }
  return null
}

/** Known-safe programs by bare name, each with the arguments that would make it unsafe. */
export const READ_ONLY_PROGRAMS: ReadonlyMap<string, ArgCheck> = new Map<string, ArgCheck>([
  ...['ls', 'cat', 'head', 'tail', 'wc', 'pwd', 'which', 'whoami', 'id', 'uname', 'basename', 'dirname'].map(
    (name) => [name, none] as const
  ),
  ...['realpath', 'readlink', 'cut', 'tr', 'nl', 'rev', 'tac', 'seq', 'cmp', 'comm', 'true', 'false', 'test', '['].map(
    (name) => [name, none] as const
  ),
  ...['stat', 'du', 'df', 'echo', 'type', 'cd', 'pushd', 'popd', 'od', 'hexdump', 'column', 'fold', 'expand'].map(
    (name) => [name, none] as const
  ),
  ...['unexpand', 'paste', 'join', 'fmt', 'strings', 'free', 'uptime', 'nproc', 'lscpu', 'lsblk', 'arch'].map(
    (name) => [name, none] as const
  ),
  ...['groups', 'tty', 'locale', 'getconf', 'diff', 'sha1sum', 'sha256sum', 'sha512sum', 'md5sum', 'cksum'].map(
    (name) => [name, none] as const
  ),
  ...['b2sum', 'grep', 'egrep', 'fgrep', 'file', 'sleep', ':', 'wait'].map((name) => [name, none] as const),
  ['printf', option({ short: 'v' }, 'printf -v assigns a variable')],
  ['rg', option({ short: 'z', long: ['pre', 'pre-glob', 'search-zip', 'hostname-bin'] }, 'rg --pre and --search-zip run other programs')],
  ['sort', option({ short: 'o', long: ['output', 'compress-program'] }, 'sort -o writes a file and --compress-program runs one')],
  ['uniq', (args) => (positionals(args).length > 1 ? 'uniq with two file names writes the second' : null)],
  [
    'xxd',
    (args) => {
      if (args.some((a) => a === '-r' || a === '-revert')) return 'xxd -r writes binary data'
      const files = args.filter((a, i) => a !== null && !a.startsWith('-') && !/^-(l|s|c|g|o|n|len|seek|cols|groupsize|offset|name)$/.test(args[i - 1] ?? ''))
      return files.length > 1 ? 'xxd with an output file writes it' : null
    }
  ],
  ['tree', option({ short: 'o' }, 'tree -o writes a file')],
  ['date', option({ short: 's', long: ['set'] }, 'date -s sets the clock')],
  ['hostname', (args) => (positionals(args).length > 0 ? 'hostname NAME renames the machine' : null)],
  ['jq', option({ short: 'fL', long: ['from-file'] }, 'jq -f / -L loads code from files')],
  ['sed', sedPrintOnly]
])

/**
 * Programs whose arguments cannot make them write or run code. Only these stay known-safe under
 * `xargs`, which appends words from its input that nobody has seen (`… | xargs sort` may get `-o x`).
 */
export function ignoresArguments(program: string): boolean {
  return READ_ONLY_PROGRAMS.get(program) === none
}

/** Programs that run another program given as their arguments; how to find where it starts. */
export interface WrapperSpec {
  /** Options that take a value (as a separate word unless attached). */
  optionsWithValue: ReadonlySet<string>
  /** Positional words consumed before the command (timeout DURATION, flock FILE, chrt PRIO). */
  positionalsBefore?: number
  /** The wrapper itself is a risk of its own (privilege, new namespaces, detaching). */
  finding?: { rule: string; message: string }
  /** Leading NAME=value words are environment assignments (env). */
  assignments?: boolean
  /** Run without a command, it does something else (env prints the environment). */
  bare?: { rule: string; message: string }
}

const set = (...items: string[]): ReadonlySet<string> => new Set(items)
const privileged = { rule: 'shell.privileged', message: 'Runs a command with elevated privileges.' }
const exotic = (what: string) => ({ rule: 'shell.wrapper', message: `${what} changes how the command runs.` })

export const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map<string, WrapperSpec>([
  ['sudo', { optionsWithValue: set('-u', '-g', '-C', '-h', '-p', '-r', '-t', '-D', '-U', '-T', '--user', '--group', '--host', '--prompt', '--role', '--type', '--chdir', '--other-user', '--close-from', '--command-timeout'), finding: privileged, bare: privileged }],
  ['doas', { optionsWithValue: set('-u', '-C'), finding: privileged, bare: privileged }],
  ['pkexec', { optionsWithValue: set('--user'), finding: privileged, bare: privileged }],
  ['run0', { optionsWithValue: set('-u', '--user', '-D', '--chdir'), finding: privileged, bare: privileged }],
  ['env', { optionsWithValue: set('-u', '--unset', '-C', '--chdir', '-S', '--split-string'), assignments: true, bare: { rule: 'shell.env-dump', message: 'Prints every environment variable, secrets included.' } }],
  ['nice', { optionsWithValue: set('-n', '--adjustment') }],
  ['ionice', { optionsWithValue: set('-c', '-n', '--class', '--classdata') }],
  ['timeout', { optionsWithValue: set('-s', '-k', '--signal', '--kill-after'), positionalsBefore: 1 }],
  ['nohup', { optionsWithValue: set(), finding: { rule: 'shell.wrapper', message: 'nohup keeps the command running and writes nohup.out.' } }],
  ['stdbuf', { optionsWithValue: set('-i', '-o', '-e', '--input', '--output', '--error') }],
  ['time', { optionsWithValue: set('-f', '-o', '--format', '--output') }],
  ['command', { optionsWithValue: set() }],
  ['builtin', { optionsWithValue: set() }],
  ['exec', { optionsWithValue: set('-a'), finding: { rule: 'shell.wrapper', message: 'exec replaces the shell with the command.' } }],
  ['setsid', { optionsWithValue: set(), finding: exotic('setsid') }],
  ['flock', { optionsWithValue: set('-w', '--timeout', '-E', '--conflict-exit-code'), positionalsBefore: 1, finding: exotic('flock') }],
  ['chrt', { optionsWithValue: set(), positionalsBefore: 1, finding: exotic('chrt') }],
  ['taskset', { optionsWithValue: set(), positionalsBefore: 1, finding: exotic('taskset') }],
  ['unshare', { optionsWithValue: set('-S', '-G', '--setuid', '--setgid', '-R', '--root', '-w', '--wd'), finding: exotic('unshare') }],
  ['chroot', { optionsWithValue: set('--userspec', '--groups'), positionalsBefore: 1, finding: privileged }],
  ['runuser', { optionsWithValue: set('-u', '-g', '-G', '--user', '--group'), finding: privileged }],
  ['watch', { optionsWithValue: set('-n', '--interval', '-d', '-q', '--equexit'), finding: { rule: 'shell.wrapper', message: 'watch repeats the command until stopped.' } }],
  ['strace', { optionsWithValue: set('-e', '-o', '-p', '-s', '-u', '-E', '-P', '-b', '-a', '-X', '-I'), finding: exotic('strace') }],
  ['ltrace', { optionsWithValue: set('-e', '-o', '-p', '-s', '-u'), finding: exotic('ltrace') }],
  ['busybox', { optionsWithValue: set(), finding: exotic('busybox') }],
  ['toybox', { optionsWithValue: set(), finding: exotic('toybox') }],
  ['systemd-run', { optionsWithValue: set('-p', '--property', '-u', '--unit', '-E', '--setenv', '--uid', '--gid', '-M', '--machine'), finding: privileged }],
  ['firejail', { optionsWithValue: set(), finding: exotic('firejail') }],
  ['proot', { optionsWithValue: set('-r', '-b', '-w'), finding: exotic('proot') }],
  ['caffeinate', { optionsWithValue: set('-t', '-w') }]
])

/** `xargs` options that take a value; the first other word is the program (default echo). */
export const XARGS_OPTIONS_WITH_VALUE = set('-I', '-n', '-P', '-L', '-d', '-E', '-s', '-a', '--max-args', '--max-procs', '--max-lines', '--delimiter', '--eof', '--max-chars', '--arg-file', '--replace', '--process-slot-var')

export const SHELLS = set('sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish', 'tcsh', 'csh', 'yash', 'rbash')

/** Interpreters and the flags that take inline code. */
export const INTERPRETERS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['python', set('-c')],
  ['node', set('-e', '--eval', '-p', '--print')],
  ['nodejs', set('-e', '--eval', '-p', '--print')],
  ['perl', set('-e', '-E')],
  ['ruby', set('-e')],
  ['php', set('-r')],
  ['lua', set('-e')],
  ['luajit', set('-e')],
  ['deno', set('eval')],
  ['bun', set('-e', '--eval', '-p', '--print')],
  ['osascript', set('-e')],
  ['rscript', set('-e')],
  ['tclsh', set()],
  ['wish', set()],
  ['awk', set()],
  ['gawk', set()],
  ['mawk', set()],
  ['nawk', set()],
  ['jshell', set()],
  ['groovy', set('-e')],
  ['pwsh', set('-c', '-command', '-encodedcommand', '-ec', '-e')],
  ['powershell', set('-c', '-command', '-encodedcommand', '-ec', '-e')],
  ['cmd', set('/c', '/k', '/r')]
])

export function interpreterName(program: string): string | null {
  const lower = program.toLowerCase().replace(/\.exe$/, '')
  if (/^python[0-9.]*$/.test(lower) || /^pypy[0-9.]*$/.test(lower)) return 'python'
  if (/^(perl|ruby|php|lua)[0-9.]*$/.test(lower)) return lower.replace(/[0-9.]+$/, '')
  return INTERPRETERS.has(lower) ? lower : null
}

/** Programs that fetch from the network: piped into a shell, that is remote code execution. */
export const FETCHERS = set('certutil', 'bitsadmin', 'start-bitstransfer', 'curl', 'wget', 'fetch', 'aria2c', 'nc', 'ncat', 'netcat', 'socat', 'iwr', 'invoke-webrequest', 'irm', 'invoke-restmethod', 'lwp-request', 'http', 'xh')

const NETWORK = set('curl', 'wget', 'ssh', 'scp', 'sftp', 'rsync', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ftp', 'ping', 'aria2c', 'http', 'xh', 'dig', 'nslookup', 'host', 'whois', 'mosh')
const WRITERS = set('rm', 'rmdir', 'mv', 'cp', 'ln', 'mkdir', 'touch', 'tee', 'truncate', 'shred', 'unlink', 'install', 'dd', 'chmod', 'chown', 'chgrp', 'chattr', 'patch', 'tar', 'zip', 'unzip', 'gzip', 'gunzip', 'bzip2', 'xz', 'rsync', 'split', 'mkfifo', 'mknod', 'setfacl')
const INSTALLERS = set('npm', 'npx', 'pnpm', 'yarn', 'bun', 'pip', 'pip3', 'pipx', 'uv', 'poetry', 'cargo', 'go', 'gem', 'bundle', 'composer', 'apt', 'apt-get', 'dpkg', 'yum', 'dnf', 'pacman', 'brew', 'snap', 'flatpak', 'make', 'cmake', 'ninja', 'gradle', 'mvn')
const SYSTEM = set('kill', 'pkill', 'killall', 'shutdown', 'reboot', 'poweroff', 'halt', 'systemctl', 'service', 'launchctl', 'crontab', 'at', 'mount', 'umount', 'useradd', 'userdel', 'usermod', 'passwd', 'iptables', 'nft', 'ufw', 'modprobe', 'insmod', 'rmmod', 'sysctl', 'docker', 'podman', 'kubectl', 'ssh-keygen', 'ssh-add', 'gpg', 'security')

/** Why an unknown program asks: a user-readable reason by family. */
export function programFamily(program: string): { rule: string; message: string } {
  if (WRITERS.has(program)) return { rule: 'shell.writes', message: `${program} changes files.` }
  if (NETWORK.has(program)) return { rule: 'shell.network', message: `${program} reaches the network.` }
  if (INSTALLERS.has(program)) return { rule: 'shell.builds', message: `${program} installs, builds or runs project scripts.` }
  if (SYSTEM.has(program)) return { rule: 'shell.system', message: `${program} changes the system or other processes.` }
  return { rule: 'shell.unknown-program', message: `${program} is not on the read-only list.` }
}

/** `git` global options that take a value, and those that change what git runs (code execution). */
export const GIT_GLOBAL_WITH_VALUE = set('-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix', '--list-cmds')
/** Global options that make git run other programs, or read a repository elsewhere; -p/--paginate start a pager, which can run commands. */
export const GIT_RISKY_GLOBAL = /^(-c|--exec-path|--config-env|--git-dir|--work-tree|-p$|--paginate$)/

/**
 * Options of git's history and diff readers known to be safe: formatting, selection, diff shape.
 * Anything else (`--output`, `--ext-diff`, `--textconv`, `--show-signature`, an option added in a
 * later git) asks (docs/risk.md, "Known-safe programs").
 */
const GIT_HISTORY: SafeSpec = {
  reads: 'none',
  flags: 'pnuwbzRMCDBlWstTcmv',
  valued: 'nUSGLOg',
  numeric: true,
  long: [
    'oneline', 'graph', 'stat', 'shortstat', 'numstat', 'name-only', 'name-status', 'patch', 'no-patch', 'all', 'decorate', 'no-decorate',
    'abbrev-commit', 'no-abbrev-commit', 'no-color', 'color', 'follow', 'reverse', 'first-parent', 'merges', 'no-merges', 'cached', 'staged',
    'word-diff', 'color-words', 'ignore-space-change', 'ignore-all-space', 'ignore-blank-lines', 'ignore-space-at-eol', 'relative', 'left-right',
    'cherry-pick', 'cherry-mark', 'boundary', 'topo-order', 'date-order', 'author-date-order', 'full-history', 'summary', 'raw', 'patch-with-stat',
    'minimal', 'histogram', 'patience', 'no-renames', 'find-renames', 'find-copies', 'branches', 'tags', 'remotes', 'source', 'compact-summary',
    'dirstat', 'full-index', 'binary', 'exit-code', 'quiet', 'check', 'no-walk', 'walk-reflogs', 'children', 'parents', 'simplify-by-decoration',
    'no-prefix', 'cc', 'regexp-ignore-case', 'all-match', 'invert-grep', 'extended-regexp', 'fixed-strings', 'perl-regexp', 'no-notes',
    'pretty', 'no-abbrev', 'abbrev', 'notes', 'ignore-submodules', 'ita-invisible-in-index', 'no-ext-diff', 'no-textconv', 'expand-tabs',
    'no-expand-tabs', 'use-mailmap', 'mailmap', 'log-size', 'count', 'single-worktree', 'ancestry-path', 'show-pulls', 'dense', 'sparse',
    'remerge-diff', 'no-merges', 'name-only', 'unified', 'function-context', 'text', 'merge-base', 'submodule', 'line-prefix', 'output-indicator-new'
  ],
  longValued: [
    'format', 'pretty', 'since', 'until', 'after', 'before', 'author', 'committer', 'grep', 'date', 'max-count', 'skip', 'diff-filter',
    'unified', 'stat', 'decorate', 'color', 'abbrev', 'word-diff', 'relative', 'find-renames', 'find-copies', 'dirstat', 'encoding',
    'diff-algorithm', 'min-age', 'max-age', 'branches', 'tags', 'remotes', 'glob', 'exclude', 'ignore-submodules', 'submodule',
    'word-diff-regex', 'color-moved', 'inter-hunk-context', 'stat-width', 'stat-name-width', 'stat-count', 'notes', 'decorate-refs',
    'decorate-refs-exclude', 'line-prefix', 'src-prefix', 'dst-prefix', 'anchored', 'ignore-matching-lines'
  ]
}

/** `git config NAME` and `git config --get NAME` read one key; any set, unset or edit asks. */
const GIT_CONFIG_READ: SafeSpec = {
  reads: 'none',
  flags: 'lz',
  long: ['get', 'get-all', 'get-regexp', 'list', 'show-origin', 'show-scope', 'global', 'system', 'local', 'worktree', 'name-only', 'null', 'includes', 'no-includes'],
  longValued: ['type', 'default', 'file', 'blob'],
  maxOperands: 1
}

/** `git reflog`, `git reflog show …`: reading the reflog with history options. */
const gitReflog: ArgCheck = (args) => {
  const sub = positionals(args)[0]
  if (sub !== undefined && sub !== 'show' && sub !== null && !/^[\w./@{}~^-]+$/.test(sub)) return 'changes the reflog'
  if (sub === 'expire' || sub === 'delete' || sub === 'drop') return 'rewrites the reflog'
  return unsafeArguments('git reflog', GIT_HISTORY, args)
}

const GIT_READ_ONLY: ReadonlyMap<string, ArgCheck> = new Map<string, ArgCheck>([
  ['status', (args) => unsafeArguments('git status', { reads: 'none', flags: 'sbuvz', long: ['short', 'branch', 'porcelain', 'long', 'ignored', 'column', 'no-column', 'ahead-behind', 'no-ahead-behind', 'renames', 'no-renames', 'verbose', 'show-stash', 'untracked-files'], longValued: ['porcelain', 'untracked-files', 'ignored', 'column', 'ignore-submodules', 'find-renames'] }, args)],
  ['log', (args) => unsafeArguments('git log', GIT_HISTORY, args)],
  ['diff', (args) => unsafeArguments('git diff', GIT_HISTORY, args)],
  ['show', (args) => unsafeArguments('git show', GIT_HISTORY, args)],
  ['whatchanged', (args) => unsafeArguments('git whatchanged', GIT_HISTORY, args)],
  // `git config NAME`, `git config --get NAME`, and git 2.46's `git config get NAME` / `git config list`.
  ['config', (args) => {
    const verb = positionals(args)[0]
    if (verb === 'get' || verb === 'list') return unsafeArguments('git config', GIT_CONFIG_READ, args.filter((a) => a !== verb))
    return unsafeArguments('git config', GIT_CONFIG_READ, args)
  }],
  ['rev-parse', none],
  ['ls-files', none],
  ['ls-tree', none],
  ['blame', none],
  ['describe', none],
  ['shortlog', none],
  ['grep', option({ short: 'O', long: ['open-files-in-pager'] }, 'opens a pager program')],
  ['cat-file', none],
  ['rev-list', none],
  ['name-rev', none],
  ['merge-base', none],
  ['count-objects', none],
  ['check-ignore', none],
  ['version', none],
  [
    'branch',
    (args) =>
      args.some((a) => a !== null && /^(-[dDmMcCfu]|--(delete|move|copy|force|set-upstream|unset-upstream|edit-description))/.test(a)) ||
      positionals(args).length > 0 && !args.some((a) => a === '--list' || a === '-l' || a === '--contains' || a === '--merged' || a === '--no-merged' || a === '--points-at')
        ? 'changes branches'
        : null
  ],
  ['tag', (args) => (positionals(args).length > 0 && !args.some((a) => a === '-l' || a === '--list') ? 'creates or deletes tags' : anyOf(/^-[dsaf]$|^--(delete|sign|annotate|force)/, 'changes tags')(args))],
  ['remote', (args) => (args.every((a) => a === '-v' || a === '--verbose') || args[0] === 'get-url' ? null : 'changes remotes or reaches the network')],
  ['stash', (args) => (args[0] === 'list' || args[0] === 'show' ? null : 'changes the stash and the working tree')],
  ['reflog', gitReflog],
  ['worktree', (args) => (args[0] === 'list' ? null : 'changes worktrees')]
])

/** Why a git subcommand is not read-only, or null when it is. */
export function gitSubcommandRisk(subcommand: string, args: ReadonlyArray<string | null>): string | null {
  const check = GIT_READ_ONLY.get(subcommand)
  if (!check) return `git ${subcommand} can change the repository, run hooks or reach the network`
  return check(args)
}

/** Variables whose prefix (`LC_ALL=C sort`) cannot change which program runs or what it loads. */
export function isHarmlessAssignment(name: string, value: string | null): boolean {
  if (value === null) return false
  if (/^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|TERM|COLUMNS|LINES|FORCE_COLOR)$/.test(name)) return true
  return (name === 'PAGER' || name === 'GIT_PAGER') && value === 'cat'
}

/** Shells' and interpreters' version queries are harmless. */
export function isVersionQuery(args: ReadonlyArray<string | null>): boolean {
  return args.length === 1 && (args[0] === '--version' || args[0] === '-V' || args[0] === '-v' || args[0] === 'version')
}

/**
 * The tokens rules see: as run, except git's global options, so a rule for `git push *` also
 * covers `git -C repo --no-pager push` (Codex find_git_subcommand).
 */
export function tokensForRules(argv: Array<string | null>): Array<string | null> {
  if (argv[0] !== 'git') return argv
  let i = 1
  while (i < argv.length && argv[i]?.startsWith('-')) i += GIT_GLOBAL_WITH_VALUE.has(argv[i]!) ? 2 : 1
  return ['git', ...argv.slice(i)]
}
