import { execa } from 'execa'
import { scrubSecrets } from './scrub-env'
import type { ExecRequest, ExecResult, Runtime } from './types'

/** Grace between SIGTERM and SIGKILL when a command is stopped. */
const KILL_GRACE_MS = 2_000

/**
 * Runs commands directly on the host, each in its own process group so that a timeout or a
 * cancel takes the whole tree (a shell's children included), not just the shell.
 */
export class NativeRuntime implements Runtime {
  readonly name = 'native'

  async exec(request: ExecRequest): Promise<ExecResult> {
    const started = Date.now()
    const isWindows = process.platform === 'win32'
    const [file, args] = isWindows
      ? ['cmd.exe', ['/d', '/s', '/c', request.command]]
      : ['/bin/sh', ['-c', request.command]]
    const child = execa(file, args, {
      cwd: request.cwd,
      env: { ...scrubSecrets(process.env), ...request.env },
      extendEnv: false,
      detached: !isWindows,
      stdin: 'ignore',
      reject: false,
      stripFinalNewline: false,
      windowsHide: true,
      maxBuffer: 64 * 1024 * 1024
    })

    let timedOut = false
    let cancelled = false
    const stopTree = (): void => {
      signalGroup(child.pid, 'SIGTERM')
      setTimeout(() => signalGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS).unref()
    }
    const timer = setTimeout(() => {
      timedOut = true
      stopTree()
    }, request.timeoutMs)
    const onAbort = (): void => {
      cancelled = true
      stopTree()
    }
    if (request.signal?.aborted) onAbort()
    else request.signal?.addEventListener('abort', onAbort, { once: true })

    child.stdout?.setEncoding('utf8')
    child.stderr?.setEncoding('utf8')
    child.stdout?.on('data', (chunk: string) => request.onOutput?.('stdout', chunk))
    child.stderr?.on('data', (chunk: string) => request.onOutput?.('stderr', chunk))
    // Background children of the command would otherwise outlive it and keep its pipes open.
    child.once('exit', () => signalGroup(child.pid, 'SIGKILL'))

    try {
      const result = await child
      return {
        exitCode: result.exitCode ?? null,
        signal: result.signal ?? null,
        stdout: String(result.stdout ?? ''),
        stderr: String(result.stderr ?? ''),
        durationMs: Date.now() - started,
        timedOut,
        cancelled
      }
    } finally {
      clearTimeout(timer)
      request.signal?.removeEventListener('abort', onAbort)
    }
  }
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return
  try {
    if (process.platform === 'win32') process.kill(pid, signal)
    else process.kill(-pid, signal)
  } catch {
    // Already gone: nothing to stop.
  }
}
