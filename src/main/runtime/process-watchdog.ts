import { spawn, type ChildProcess } from 'node:child_process'
import { APP_RUN_ID, RUN_MARKER_VARIABLE } from './run-marker'

/**
 * The watchdog (docs/runtimes.md, "A run owns its processes"): a small detached `/bin/sh` whose
 * stdin is a pipe from the app. The app writes `+PGID` when a command's process group starts and
 * `-PGID` when it has been reaped. When the pipe reaches EOF — the app exited or died, even by
 * SIGKILL, since the kernel closes the pipe either way — the watchdog SIGKILLs every group still
 * listed, then (Linux) every process of this user whose environment carries this app's run
 * marker: children that left the group with `setsid` or a double fork.
 * `$1` is the app's run id (run-marker.ts), made of `[0-9a-f-]` only.
 */
const WATCHDOG_SCRIPT = [
  'marker="^' + RUN_MARKER_VARIABLE + '=$1\\."',
  "groups=' '",
  'while IFS= read -r line; do',
  '  g=${line#?}',
  '  case $line in',
  '    +[0-9]*) groups="$groups$g " ;;',
  '    -[0-9]*) case $groups in *" $g "*) groups="${groups%%" $g "*} ${groups#*" $g "}" ;; esac ;;',
  '  esac',
  'done',
  'for g in $groups; do kill -KILL -"$g" 2>/dev/null; done',
  '[ -r /proc/self/environ ] || exit 0',
  'round=0',
  'while [ "$round" -lt 5 ]; do',
  '  found=',
  // One grep over every environment (NUL-separated: -z), not two processes per process: with
  // ~100 processes the per-process form took ~4 s under load, one grep ~60 ms.
  '  for f in $(grep -lsz "$marker" /proc/[0-9]*/environ); do',
  '    d=${f%/environ}',
  '    [ -O "$d" ] && [ "${d#/proc/}" != "$$" ] || continue',
  '    kill -KILL "${d#/proc/}" 2>/dev/null && found=1',
  '  done',
  '  [ -n "$found" ] || break',
  '  round=$((round + 1))',
  'done'
].join('\n')

let watchdog: ChildProcess | undefined
/** Groups listed now; told again to a watchdog that had to be restarted. */
const watched = new Set<number>()

/**
 * Starts the watchdog if none runs. Called before a command is spawned, so that an app killed
 * right after the spawn still leaves a watchdog to find the command by its marker.
 */
export function ensureWatchdog(): void {
  if (process.platform === 'win32' || watchdog) return
  start()
}

/** Lists a command's process group with the watchdog (started on first use). No-op on Windows. */
export function watchGroup(pgid: number): void {
  if (process.platform === 'win32') return
  watched.add(pgid)
  send(`+${pgid}`)
}

/** The group has been reaped: the watchdog forgets it (its number may be reused). */
export function unwatchGroup(pgid: number): void {
  if (!watched.delete(pgid)) return
  send(`-${pgid}`)
}

/** The watchdog's pid, when one runs (tests). */
export function watchdogPid(): number | undefined {
  return watchdog?.pid
}

function send(line: string): void {
  // A fresh watchdog is told the whole list, this change included.
  if (!watchdog) {
    start()
    return
  }
  if (watchdog.stdin?.writable) watchdog.stdin.write(`${line}\n`)
}

function start(): void {
  let child: ChildProcess
  try {
    child = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'deskclaw-watchdog', APP_RUN_ID], {
      // Its own session: Ctrl+C or a closed terminal must not take the watchdog down with the app.
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      cwd: '/',
      env: { PATH: '/usr/bin:/bin' }
    })
  } catch {
    return
  }
  const forget = (): void => {
    if (watchdog === child) watchdog = undefined
  }
  child.on('error', forget)
  child.on('exit', forget)
  child.stdin?.on('error', forget)
  // The app may exit while the watchdog waits: neither the process nor its pipe keeps it alive.
  child.unref()
  ;(child.stdin as { unref?: () => void } | null)?.unref?.()
  if (child.pid === undefined) return
  watchdog = child
  for (const pgid of watched) child.stdin?.write(`+${pgid}\n`)
}
