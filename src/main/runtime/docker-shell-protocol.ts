/**
 * The line protocol of the persistent shell in a docker sandbox (docs/runtimes.md, "The
 * persistent shell"). Pure text: the shell scripts, the request lines, and the reader that finds
 * a command's output and exit status between its frames. Only POSIX sh and busybox applets.
 */

/** First byte of every frame: a control character commands seldom print (unit separator). */
const FRAME_START = '\x1f'

/**
 * Kills every container process whose environment holds `DESKCLAW_RUN_ID=$t` (children that left
 * the group with `setsid` or a double fork), up to 5 rounds; one `grep` per round for all of
 * /proc, whose own environment never holds the marker. Needs `$t`.
 */
export const MARKER_SCAN = [
  'r=0',
  'while [ "$r" -lt 5 ]; do',
  '  found=',
  '  for f in $(grep -lzxsF "DESKCLAW_RUN_ID=$t" /proc/[0-9]*/environ); do',
  '    f=${f#/proc/}; kill -KILL "${f%/environ}" 2>/dev/null && found=1',
  '  done',
  '  [ -n "$found" ] || break',
  '  r=$((r + 1))',
  'done'
].join('\n')

/** Sets `$n` to the cgroup's oom_kill count (v2 memory.events, v1 memory.oom_control), with builtins only. */
export const OOM_COUNT = [
  'ooms() { n=0; for f in /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control; do',
  '  [ -r "$f" ] || continue',
  '  while read -r k v; do [ "$k" = oom_kill ] && n=$v; done < "$f"',
  'done; }'
].join('\n')

/**
 * The persistent shell: `$1` is the out-of-memory line, `$2` the file where the running command's
 * `token pgid` is recorded (so a timeout can signal its group). It runs under `env -i` with only
 * HOSTNAME (SHELL_ARGV), reads one request per line and `eval`s it; requests are calls of `run`
 * built by `runRequestLine` (every value single-quoted).
 *
 * `run NONCE TOKEN CWD N ENV… ARGV…`, where the N env entries are `NAME=VALUE`:
 * - writes the start frame on stdout and stderr, then starts the command in the background, in a
 *   subshell (so nothing it does changes this shell), in CWD, as the leader of a new session (its
 *   own process group), with exactly HOSTNAME and the given environment (the subshell unsets what
 *   the shell itself exports and exports the entries, builtins only) and stdin from /dev/null: it
 *   never sees the protocol stream;
 * - records `TOKEN PGID`, waits for it, kills its group, and — when a process appeared that was not
 *   there before the command (a glob of /proc, no fork) — every process carrying its marker;
 *   compares the oom_kill count, clears the record;
 * - writes the end frame with the exit status on stdout and stderr. The command's own output went
 *   straight to the same streams, before the end frame; the nonce is new for each command and
 *   never in any process's argv or environment, so output cannot forge a frame by accident. *
 * `sig NONCE FILE TOKEN SIGNAL` (only while this shell is idle): sends SIGNAL to the group recorded
 * in FILE when the record is TOKEN's, with builtins only (no new process: it works under a fork
 * bomb), and answers `sig:0` (sent) or `sig:3` (no such record yet) on stdout.
 */
export const SHELL_DRIVER = [
  'm=$1; rec=$2; h=$HOSTNAME',
  'S=$(command -v setsid) || S=setsid',
  "nl='",
  "'",
  OOM_COUNT,
  'run() {',
  '  c=$1 t=$2 d=$3 e=$4; shift 4',
  `  printf '\\037deskclaw:%s:start\\n' "$c"; printf '\\037deskclaw:%s:start\\n' "$c" >&2`,
  '  ooms; before=$n',
  `  p0=' '; for f in /proc/[0-9]*; do p0="$p0\${f#/proc/} "; done`,
  '  ( cd "$d" || exit 126',
  '    unset PATH PWD OLDPWD SHLVL HOSTNAME; export HOSTNAME="$h"',
  '    while [ "$e" -gt 0 ]; do export "$1"; shift; e=$((e - 1)); done',
  '    exec "$S" "$@" ) </dev/null &',
  '  g=$!',
  '  if echo "$t $g" 2>/dev/null > "$rec"; then',
  '    wait "$g"; s=$?',
  '  else',
  '    kill -KILL -"$g" 2>/dev/null; kill -KILL "$g" 2>/dev/null; wait "$g"',
  '    echo "deskclaw: cannot record the command in /tmp (is the sandbox /tmp full?)" >&2',
  '    s=125',
  '  fi',
  '  kill -KILL -"$g" 2>/dev/null',
  '  left=',
  '  for f in /proc/[0-9]*; do case "$p0" in *" ${f#/proc/} "*) ;; *) left=1; break ;; esac; done',
  '  if [ -n "$left" ]; then',
  MARKER_SCAN.replace(/^/gm, '    '),
  '  fi',
  `  printf '' 2>/dev/null > "$rec"`,
  '  ooms; [ "$n" -gt "$before" ] && echo "$m" >&2',
  `  printf '\\037deskclaw:%s:end:%s\\n' "$c" "$s"; printf '\\037deskclaw:%s:end:%s\\n' "$c" "$s" >&2`,
  '}',
  'sig() {',
  '  rc=3',
  '  if read -r rt rg 2>/dev/null < "$2" && [ "$rt" = "$3" ]; then kill -"$4" -"$rg" 2>/dev/null; rc=0; fi',
  `  printf '\\037deskclaw:%s:sig:%s\\n' "$1" "$rc"`,
  '}',
  'while IFS= read -r line; do eval "$line"; done'
].join('\n')

/** The argv[0] the persistent shell runs under (`$0`): how `ps` shows it. */
export const SHELL_NAME = 'deskclaw-shell'

/** Starts SHELL_DRIVER under `env -i`, keeping only the container's HOSTNAME. */
export function shellArgv(outOfMemoryLine: string, recordFile: string): string[] {
  return ['/bin/sh', '-c', 'exec env -i "HOSTNAME=$HOSTNAME" /bin/sh -c "$0" "$@"', SHELL_DRIVER, SHELL_NAME, outOfMemoryLine, recordFile]
}

/**
 * Stops what a command left after its shell died: SIGKILL to the group recorded for token `$2` in
 * file `$1` (if the record is that command's), then the marker scan. Exits 0.
 */
export const CLEANUP_SCRIPT = [
  'f=$1; t=$2',
  'if read -r rt rg < "$f" 2>/dev/null && [ "$rt" = "$t" ]; then kill -KILL -"$rg" 2>/dev/null; fi',
  MARKER_SCAN,
  'exit 0'
].join('\n')

/** A value as one single-quoted shell word; a newline becomes `$nl` so the request stays one line. */
export function shellWord(value: string): string {
  if (value.includes('\0')) throw new Error('A command, folder or variable cannot contain a NUL character.')
  return `'${value.replace(/'/g, `'\\''`).replace(/\n/g, `'"$nl"'`)}'`
}

export interface RunRequest {
  nonce: string
  token: string
  cwd: string
  /** `NAME=VALUE` entries: the command's whole environment (besides HOSTNAME). */
  env: readonly string[]
  argv: readonly string[]
}

/** A name `export` accepts; any other goes through `env` in front of the argv. */
const SHELL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*=/

/** One request line for SHELL_DRIVER, newline included. */
export function runRequestLine(request: RunRequest): string {
  if (request.argv.length === 0) throw new Error('Cannot run an empty argv.')
  // `env` would take an argv[0] holding `=` for one more variable.
  let argv = request.argv[0]!.includes('=') ? ['/bin/sh', '-c', 'exec "$@"', 'sh', ...request.argv] : [...request.argv]
  const exported = request.env.filter((entry) => SHELL_NAME_PATTERN.test(entry))
  const others = request.env.filter((entry) => !SHELL_NAME_PATTERN.test(entry))
  if (others.length > 0) argv = ['env', ...others, ...argv]
  const words = [request.nonce, request.token, request.cwd, String(exported.length), ...exported, ...argv]
  return `run ${words.map(shellWord).join(' ')}\n`
}

/** One `sig` request line for SHELL_DRIVER (see there), newline included. */
export function signalRequestLine(request: { nonce: string; recordFile: string; token: string; signal: 'TERM' | 'KILL' }): string {
  return `sig ${[request.nonce, request.recordFile, request.token, request.signal].map(shellWord).join(' ')}\n`
}

/** Finds the answer to one `sig` request in a shell's stdout. */
export class SignalReplyReader {
  status: number | null = null
  private readonly frame: RegExp
  private seen = ''

  constructor(nonce: string) {
    this.frame = new RegExp(`${FRAME_START}deskclaw:${nonce}:sig:(\\d+)\n`)
  }

  /** True once the answer arrived (then `status` holds it). */
  push(text: string): boolean {
    this.seen = (this.seen + text).slice(-4096)
    const match = this.frame.exec(this.seen)
    if (match) this.status = Number(match[1])
    return match !== null
  }
}

export type FrameState = 'before-start' | 'output' | 'ended'

/**
 * Reads one command's frames on one stream (stdout or stderr): drops what arrives before its
 * start frame (output of a process left behind by an earlier command), passes the output on as it
 * arrives, and stops at its end frame, keeping the exit status. Holds back only a tail that could
 * be the beginning of the end frame.
 */
export class FrameReader {
  state: FrameState = 'before-start'
  status: number | null = null
  private readonly start: string
  private readonly end: string
  private pending = ''

  constructor(
    nonce: string,
    private readonly onOutput: (text: string) => void
  ) {
    this.start = `${FRAME_START}deskclaw:${nonce}:start\n`
    this.end = `${FRAME_START}deskclaw:${nonce}:end:`
  }

  push(text: string): void {
    if (this.state === 'ended' || text.length === 0) return
    this.pending += text
    if (this.state === 'before-start') {
      const at = this.pending.indexOf(this.start)
      if (at < 0) {
        this.pending = this.pending.slice(-(this.start.length - 1))
        return
      }
      this.pending = this.pending.slice(at + this.start.length)
      this.state = 'output'
    }
    const at = this.pending.indexOf(this.end)
    if (at >= 0) {
      const lineEnd = this.pending.indexOf('\n', at + this.end.length)
      this.emit(this.pending.slice(0, at))
      this.pending = this.pending.slice(at)
      if (lineEnd < 0) return
      this.status = Number.parseInt(this.pending.slice(this.end.length, lineEnd - at), 10)
      this.state = 'ended'
      this.pending = ''
      return
    }
    const keep = partialSuffix(this.pending, this.end)
    this.emit(this.pending.slice(0, this.pending.length - keep))
    this.pending = this.pending.slice(this.pending.length - keep)
  }

  /** The output held back when the stream ends without an end frame (the shell died). */
  flush(): void {
    if (this.state === 'output') this.emit(this.pending)
    this.pending = ''
  }

  private emit(text: string): void {
    if (text.length > 0) this.onOutput(text)
  }
}

/** Length of the end of `text` that is a beginning of `needle` (whose first character occurs once in it). */
function partialSuffix(text: string, needle: string): number {
  const from = text.lastIndexOf(needle[0]!)
  if (from < 0 || text.length - from >= needle.length) return 0
  return needle.startsWith(text.slice(from)) ? text.length - from : 0
}
