import fs from 'node:fs'
import type { Readable } from 'node:stream'
import { loadExeca } from './load-execa'
import { OutputCollector } from './output-collector'
import { ensureWatchdog, unwatchGroup, watchGroup } from './process-watchdog'
import { nextCommandMarker, RUN_MARKER_VARIABLE } from './run-marker'
import { killMarkedProcesses } from './stray-processes'
import { RuntimeUnavailableError, type ExecRequest, type ExecResult } from './types'

/** Grace between SIGTERM and SIGKILL when a command is stopped. */
export const KILL_GRACE_MS = 2_000

/** setTimeout fires at once for delays above 2^31-1 ms; longer timeouts mean "never". */
const MAX_TIMER_MS = 2 ** 31 - 1

export interface SpawnPlan {
  /** Reported as `ExecResult.runtime`. */
  runtime: string
  file: string
  args: readonly string[]
  cwd: string
  env: Record<string, string>
  /**
   * Read-only pipes after stdin/stdout/stderr (fd 3, 4…), handed to `onExtraPipes` once the
   * process has started; bwrap's `--info-fd` uses one to say which pid runs inside the sandbox.
   */
  extraPipes?: number
  onExtraPipes?(pipes: Readable[]): void
  /**
   * Process groups that get the SIGTERM when the command is stopped; default: the child's own
   * group. (bwrap's command lives in a group of its own inside the sandbox.)
   */
  gracefulGroups?(childPid: number): number[]
}

/**
 * Spawns a host process in its own process group, streams its output, and on timeout or cancel
 * sends SIGTERM, then SIGKILL after KILL_GRACE_MS, to the whole group — a shell's children
 * included. Shared by the native, bwrap and sandbox-exec runtimes.
 *
 * The run owns what the command starts (docs/runtimes.md, "A run owns its processes"): the group
 * is listed with the watchdog, which kills it if the app dies; and the command carries the run
 * marker, so children that left the group (`setsid`, `nohup … &`, a double fork) are found and
 * killed when the command ends.
 */
export async function spawnAndCollect(plan: SpawnPlan, request: ExecRequest): Promise<ExecResult> {
  const started = Date.now()
  const isWindows = process.platform === 'win32'
  const output = new OutputCollector(request.onOutput)
  const marker = nextCommandMarker()
  ensureWatchdog()
  const { execa } = await loadExeca()
  const child = execa(plan.file, [...plan.args], {
    cwd: plan.cwd,
    // Added last, after the environment allowlist (command-env.ts): not a secret, and every command needs it.
    env: { ...plan.env, [RUN_MARKER_VARIABLE]: marker },
    extendEnv: false,
    detached: !isWindows,
    stdio: ['ignore', 'pipe', 'pipe', ...Array<'pipe'>(plan.extraPipes ?? 0).fill('pipe')],
    buffer: false,
    reject: false,
    windowsHide: true
  })

  let timedOut = false
  let cancelled = false
  let killTimer: NodeJS.Timeout | undefined
  const stopTree = (): void => {
    if (killTimer || child.pid === undefined) return
    const pid = child.pid
    for (const group of plan.gracefulGroups?.(pid) ?? [pid]) signalGroup(group, 'SIGTERM')
    killTimer = setTimeout(() => {
      for (const group of new Set([pid, ...(plan.gracefulGroups?.(pid) ?? [])])) signalGroup(group, 'SIGKILL')
    }, KILL_GRACE_MS)
    killTimer.unref()
  }
  const timer =
    request.timeoutMs > 0 && request.timeoutMs <= MAX_TIMER_MS
      ? setTimeout(() => {
          timedOut = true
          stopTree()
        }, request.timeoutMs)
      : undefined
  const onAbort = (): void => {
    cancelled = true
    stopTree()
  }
  if (request.signal?.aborted) onAbort()
  else request.signal?.addEventListener('abort', onAbort, { once: true })

  child.stdout?.setEncoding('utf8')
  child.stderr?.setEncoding('utf8')
  child.stdout?.on('data', (chunk: string) => output.push('stdout', chunk))
  child.stderr?.on('data', (chunk: string) => output.push('stderr', chunk))
  if (plan.extraPipes) {
    plan.onExtraPipes?.(child.stdio.slice(3).filter((pipe): pipe is Readable => pipe !== null && 'read' in pipe))
  }
  if (child.pid !== undefined && !isWindows) watchGroup(child.pid)
  // Background children of the command would otherwise outlive it and keep its pipes open:
  // the group first, then whatever left it but carries the command's marker.
  child.once('exit', () => {
    if (child.pid === undefined) return
    signalGroup(child.pid, 'SIGKILL')
    killMarkedProcesses({ exact: marker })
    unwatchGroup(child.pid)
  })

  try {
    const result = await child
    if (result.exitCode === undefined && result.signal === undefined) {
      throw new RuntimeUnavailableError(startFailure(plan, result.code))
    }
    return {
      exitCode: result.exitCode ?? null,
      signal: result.signal ?? null,
      stdout: output.text('stdout'),
      stderr: output.text('stderr'),
      truncated: output.truncated,
      durationMs: Date.now() - started,
      timedOut,
      cancelled,
      runtime: plan.runtime
    }
  } finally {
    // The exit handler has already SIGKILLed whatever was left of the group.
    clearTimeout(timer)
    clearTimeout(killTimer)
    request.signal?.removeEventListener('abort', onAbort)
  }
}

function startFailure(plan: SpawnPlan, code: string | undefined): string {
  if (!fs.existsSync(plan.cwd)) return `Cannot run the command: the folder ${plan.cwd} does not exist.`
  if (code === 'ENOENT') return `Cannot run the command: ${plan.file} was not found.`
  return `Cannot run the command: starting ${plan.file} failed${code ? ` (${code})` : ''}.`
}

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    if (process.platform === 'win32') process.kill(pid, signal)
    else process.kill(-pid, signal)
  } catch {
    // Already gone: nothing to stop.
  }
}
