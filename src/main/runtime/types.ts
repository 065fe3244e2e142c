/** Where tool commands run (docs/runtimes.md): native, bwrap, sandbox-exec or docker. */

/** What to run: a shell line (`/bin/sh -c`, `cmd.exe /c` on Windows) or an argv with no shell. */
export type ExecCommand = { command: string; argv?: undefined } | { argv: readonly string[]; command?: undefined }

export type ExecRequest = ExecCommand & {
  cwd: string
  /**
   * The folder sandboxed runtimes let the command write (and docker bind-mounts); defaults to
   * `cwd`. Native ignores it.
   */
  workspace?: string
  /**
   * The workspace is mounted read-only: bwrap `--ro-bind`, sandbox-exec without the write rule,
   * docker a second container of the conversation whose bind mount is read-only (docs/runtimes.md,
   * "A read-only workspace"). Native cannot do it and refuses the request.
   */
  workspaceReadOnly?: boolean
  /** Docker keeps one container per conversation; other runtimes ignore it. */
  conversationId?: string
  /** Added on top of the runtime's own (scrubbed) environment. */
  env?: Record<string, string>
  timeoutMs: number
  signal?: AbortSignal
  /** Live output, in order, as it arrives (before the command ends). */
  onOutput?(stream: 'stdout' | 'stderr', chunk: string): void
}

export interface ExecResult {
  exitCode: number | null
  /** Set when the process ended by a signal (after a timeout or cancel, SIGTERM/SIGKILL). */
  signal: string | null
  /** At most OUTPUT_CAP_CHARS each; `truncated` says whether anything was dropped. */
  stdout: string
  stderr: string
  truncated: boolean
  durationMs: number
  timedOut: boolean
  cancelled: boolean
  /** Docker only: the kernel killed the command because the sandbox hit its memory limit. */
  oomKilled?: boolean
  /** The runtime that actually ran the command (native, bwrap, sandbox-exec, docker). */
  runtime: string
}

export interface Runtime {
  readonly name: string
  /** Which shell reads a command line: `cmd` for native Windows, else `sh` (the risk engine judges with its rules). */
  readonly shell?: 'sh' | 'cmd'
  exec(request: ExecRequest): Promise<ExecResult>
  /** Resolves once `name` is final (a runtime chosen by probing, see SelectedRuntime). Never rejects. */
  ready?(): Promise<void>
  /** Frees what one conversation holds (its docker container). */
  closeConversation?(conversationId: string): Promise<void>
  /** Frees what the runtime holds (containers…); the runtime may not be used afterwards. */
  close?(): Promise<void>
}

/** The runtimes that isolate a command (no network, only the workspace writable); native does not. */
export const SANDBOX_RUNTIME_NAMES: ReadonlySet<string> = new Set(['bwrap', 'docker', 'sandbox-exec'])

/** Whether a runtime can run here, and if not, a one-line reason a person can act on. */
export type ProbeResult = { ok: true; detail?: string } | { ok: false; reason: string }

/** A runtime could not run the command at all (engine down, image missing…): one clear line. */
export class RuntimeUnavailableError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RuntimeUnavailableError'
  }
}
