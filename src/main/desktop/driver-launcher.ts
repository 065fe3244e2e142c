/**
 * How the app starts the driver process: `child_process.fork` under Node (CLI, web host, tests);
 * the Electron shell passes its own launcher built on `utilityProcess` (docs/desktop.md, "The driver").
 */
import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

export interface DriverExit {
  code: number | null
  signal: string | null
}

/** One running driver process, as the app sees it. */
export interface DriverChannel {
  send(message: unknown): void
  onMessage(listener: (message: unknown) => void): void
  onExit(listener: (exit: DriverExit) => void): void
  kill(): void
  /** The end of what the process wrote to stderr (for "why did it die"). */
  stderrTail(): string
  readonly pid?: number
}

export type DriverLauncher = (options: { entry: string; env: NodeJS.ProcessEnv }) => DriverChannel

const STDERR_TAIL = 2_000

export const forkDriver: DriverLauncher = ({ entry, env }) => {
  // Advanced serialization: screenshots cross as bytes, not as JSON arrays of numbers.
  const child = fork(entry, [], { env, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL)))
  const exitListeners: Array<(exit: DriverExit) => void> = []
  let exited: DriverExit | null = null
  const exit = (info: DriverExit) => {
    if (exited) return
    exited = info
    for (const listener of exitListeners) listener(info)
  }
  child.on('exit', (code, signal) => exit({ code, signal }))
  child.on('error', (error) => {
    stderr += `\n${error.message}`
    exit({ code: null, signal: null })
  })
  return {
    send: (message) => {
      if (child.connected) child.send(message as never)
    },
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => {
      if (exited) listener(exited)
      else exitListeners.push(listener)
    },
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    },
    stderrTail: () => stderr.trim(),
    pid: child.pid
  }
}

/**
 * The built driver script (`out/main/desktop-driver.js`): beside the bundle that asks, one level up
 * from a shared chunk, or the repository's build when running from source (tests).
 */
export function resolveDriverEntry(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DESKCLAW_DESKTOP_DRIVER) return env.DESKCLAW_DESKTOP_DRIVER
  const candidates = [
    join(__dirname, 'desktop-driver.js'),
    join(__dirname, '..', 'desktop-driver.js'),
    join(__dirname, '..', '..', '..', 'out', 'main', 'desktop-driver.js')
  ]
  return candidates.find((path) => existsSync(path)) ?? candidates[0]!
}
