/**
 * What we know about programs, by name, other than what allows them: wrappers, shells,
 * interpreters, fetchers and the families an unknown program's question names. What allows a
 * program is its spec alone (spec.ts, safe-programs.ts, git-spec.ts, version-spec.ts).
 */

import type { ProgramSpec } from './spec'

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
  /**
   * The wrapper's own options and words before the command, as a spec like every other allow path (docs/risk.md,
   * "Program specs"): a wrapper that does not ask by itself runs the command silently only with these. `safeForms`
   * are whole command lines after the wrapper.
   */
  spec?: ProgramSpec
}

const set = (...items: string[]): ReadonlySet<string> => new Set(items)
const privileged = { rule: 'shell.privileged', message: 'Runs a command with elevated privileges.' }
const exotic = (what: string) => ({ rule: 'shell.wrapper', message: `${what} changes how the command runs.` })

export const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map<string, WrapperSpec>([
  ['sudo', { optionsWithValue: set('-u', '-g', '-C', '-h', '-p', '-r', '-t', '-D', '-U', '-T', '--user', '--group', '--host', '--prompt', '--role', '--type', '--chdir', '--other-user', '--close-from', '--command-timeout'), finding: privileged, bare: privileged }],
  ['doas', { optionsWithValue: set('-u', '-C'), finding: privileged, bare: privileged }],
  ['pkexec', { optionsWithValue: set('--user'), finding: privileged, bare: privileged }],
  ['run0', { optionsWithValue: set('-u', '--user', '-D', '--chdir'), finding: privileged, bare: privileged }],
  ['env', { optionsWithValue: set('-u', '--unset', '-C', '--chdir', '-S', '--split-string'), assignments: true, bare: { rule: 'shell.env-dump', message: 'Prints every environment variable, secrets included.' },
    // -S splits a string into a command line (judged apart, in any spelling); -C moves the command (tracked as cd).
    spec: { reads: 'none', flags: 'i0v', valued: 'uC', long: ['ignore-environment', 'null', 'debug'], longValued: ['unset', 'chdir'], roles: { C: 'names', chdir: 'names' }, unsafe: { S: 'code', 'split-string': 'code' }, maxOperands: 0, safeForms: [['ls'], ['LC_ALL=C', 'sort', 'README.md'], ['-u', 'FOO', 'ls']] } }],
  ['nice', { optionsWithValue: set('-n', '--adjustment'), spec: { reads: 'none', valued: 'n', longValued: ['adjustment'], numeric: true, maxOperands: 0, safeForms: [['ls'], ['-n', '10', 'ls']] } }],
  ['ionice', { optionsWithValue: set('-c', '-n', '--class', '--classdata'), spec: { reads: 'none', flags: 't', valued: 'cn', long: ['ignore'], longValued: ['class', 'classdata'], unsafe: { p: 'text', pid: 'text', P: 'text', pgid: 'text', u: 'text', uid: 'text' }, maxOperands: 0, safeForms: [['-c', '3', 'ls']] } }],
  ['timeout', { optionsWithValue: set('-s', '-k', '--signal', '--kill-after'), positionalsBefore: 1,
    spec: { reads: 'none', flags: 'v', valued: 'sk', long: ['preserve-status', 'foreground', 'verbose'], longValued: ['signal', 'kill-after'], maxOperands: 1, operand: /^(\d+(\.\d+)?|\.\d+)[smhd]?$/, safeForms: [['5', 'ls'], ['-k', '1', '10s', 'git', 'status']] } }],
  ['nohup', { optionsWithValue: set(), finding: { rule: 'shell.wrapper', message: 'nohup keeps the command running and writes nohup.out.' } }],
  ['stdbuf', { optionsWithValue: set('-i', '-o', '-e', '--input', '--output', '--error'), spec: { reads: 'none', valued: 'ioe', longValued: ['input', 'output', 'error'], maxOperands: 0, safeForms: [['-oL', 'ls']] } }],
  // GNU time's -o writes its report to a file; bash's time keyword takes only -p.
  ['time', { optionsWithValue: set('-f', '-o', '--format', '--output'), spec: { reads: 'none', flags: 'pvq', valued: 'f', long: ['portability', 'verbose', 'quiet'], longValued: ['format'], unsafe: { o: 'written', output: 'written', a: 'written', append: 'written' }, maxOperands: 0, safeForms: [['ls'], ['-p', 'git', 'status']] } }],
  ['command', { optionsWithValue: set(), spec: { reads: 'none', flags: 'p', maxOperands: 0, safeForms: [['ls'], ['-p', 'ls']] } }],
  ['builtin', { optionsWithValue: set(), spec: { reads: 'none', maxOperands: 0, safeForms: [['pwd']] } }],
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
  ['caffeinate', { optionsWithValue: set('-t', '-w'), spec: { reads: 'none', flags: 'dimsu', valued: 'tw', maxOperands: 0, safeForms: [['-i', 'ls']] } }]
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

/** Programs that fetch from the network (DNS records included): piped into a shell, that is remote code execution. */
export const FETCHERS = set('dig', 'nslookup', 'host', 'drill', 'kdig', 'delv', 'certutil', 'bitsadmin', 'start-bitstransfer', 'curl', 'wget', 'fetch', 'aria2c', 'nc', 'ncat', 'netcat', 'socat', 'iwr', 'invoke-webrequest', 'irm', 'invoke-restmethod', 'lwp-request', 'http', 'xh')

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

/** Variables whose prefix (`LC_ALL=C sort`) cannot change which program runs or what it loads. */
export function isHarmlessAssignment(name: string, value: string | null): boolean {
  if (value === null) return false
  if (/^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|TERM|COLUMNS|LINES|FORCE_COLOR)$/.test(name)) return true
  return (name === 'PAGER' || name === 'GIT_PAGER') && value === 'cat'
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
