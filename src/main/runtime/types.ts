/** Where tool commands run (DESIGN §5). Only `native` exists so far; bwrap and docker plug in here. */
export interface ExecRequest {
  /** A shell command line, run by the platform shell. */
  command: string
  cwd: string
  env?: Record<string, string>
  timeoutMs: number
  signal?: AbortSignal
  onOutput?(stream: 'stdout' | 'stderr', chunk: string): void
}

export interface ExecResult {
  exitCode: number | null
  /** Set when the process ended by a signal (after a timeout or cancel, SIGTERM/SIGKILL). */
  signal: string | null
  stdout: string
  stderr: string
  durationMs: number
  timedOut: boolean
  cancelled: boolean
}

export interface Runtime {
  readonly name: string
  exec(request: ExecRequest): Promise<ExecResult>
}
