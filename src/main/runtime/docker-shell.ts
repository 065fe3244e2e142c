import { randomBytes, randomUUID } from 'node:crypto'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import type Docker from 'dockerode'
import { armStop, execQuiet, signalGroup, type DockerExecOutcome } from './docker-exec'
import { CLEANUP_SCRIPT, FrameReader, runRequestLine, shellArgv, SignalReplyReader, signalRequestLine } from './docker-shell-protocol'
import { OutputCollector } from './output-collector'
import type { ExecRequest } from './types'

/** Idle shells kept per container for the next commands; more run at once only while needed. */
export const MAX_IDLE_SHELLS = 4

type StreamName = 'stdout' | 'stderr'

export interface ShellCommand {
  /** The command's marker, `DESKCLAW_RUN_ID`, already in `env`. */
  token: string
  cwd: string
  /** The command's whole environment, `NAME=VALUE`. */
  env: readonly string[]
  argv: readonly string[]
  onOutput(stream: StreamName, text: string): void
}

export interface ShellRunOutcome {
  /** The start frame arrived: the command may have run. Without it, it surely did not. */
  started: boolean
  /** The status in the end frame; null when the shell died first. */
  status: number | null
  shellDied: boolean
}

/** What the shell is doing for the app right now: a command, or a signal request. */
interface Pending {
  push(stream: StreamName, text: string): void
  /** The shell's stream ended. */
  died(): void
}

/**
 * One long-lived `/bin/sh` in a sandbox container, started by one `docker exec` with stdin
 * attached; it runs one command at a time (docs/runtimes.md, "The persistent shell").
 */
export class PersistentShell {
  alive = true
  private pending?: Pending
  private readonly closed: Promise<void>

  private constructor(
    readonly container: Docker.Container,
    private readonly stream: Duplex,
    docker: Docker,
    /** Where the shell records the running command's `token pgid` (see SHELL_DRIVER). */
    readonly recordFile: string
  ) {
    const sink = (name: StreamName): NodeJS.WritableStream => {
      const decoder = new StringDecoder('utf8')
      const write = (chunk: Buffer): boolean => (this.pending?.push(name, decoder.write(chunk)), true)
      return { write } as unknown as NodeJS.WritableStream
    }
    docker.modem.demuxStream(stream, sink('stdout'), sink('stderr'))
    this.closed = new Promise((resolve) => {
      const died = (): void => {
        this.alive = false
        this.pending?.died()
        resolve()
      }
      stream.once('end', died)
      stream.once('close', died)
      stream.once('error', died)
    })
    stream.on('error', () => {})
    this.idle()
  }

  /** Starts the shell; throws the engine's error when the container cannot exec (gone, stopped…). */
  static async start(docker: Docker, container: Docker.Container, outOfMemoryLine: string): Promise<PersistentShell> {
    const recordFile = `/tmp/.deskclaw-exec-${randomUUID()}`
    const exec = await container.exec({
      Cmd: shellArgv(outOfMemoryLine, recordFile),
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false
    })
    const stream = (await exec.start({ hijack: true, stdin: true })) as Duplex
    return new PersistentShell(container, stream, docker, recordFile)
  }

  /** Runs one command; resolves when both streams carried its end frame, or the shell died. */
  run(command: ShellCommand): Promise<ShellRunOutcome> {
    const nonce = randomBytes(16).toString('hex')
    const line = runRequestLine({ nonce, token: command.token, cwd: command.cwd, env: command.env, argv: command.argv })
    const ifDead: ShellRunOutcome = { started: false, status: null, shellDied: true }
    return this.send(line, ifDead, (finish) => {
      const readers = {
        stdout: new FrameReader(nonce, (text) => command.onOutput('stdout', text)),
        stderr: new FrameReader(nonce, (text) => command.onOutput('stderr', text))
      }
      return {
        push: (stream, text) => {
          readers[stream].push(text)
          if (readers.stdout.state === 'ended' && readers.stderr.state === 'ended') {
            finish({ started: true, status: readers.stdout.status, shellDied: false })
          }
        },
        died: () => {
          readers.stdout.flush()
          readers.stderr.flush()
          const started = readers.stdout.state !== 'before-start' || readers.stderr.state !== 'before-start'
          finish({ started, status: null, shellDied: true })
        }
      }
    })
  }

  /**
   * Sends `signal` to the group recorded in `recordFile` for `token` (any shell's record), with
   * builtins only, so it works even when the pids limit leaves no room for a new process.
   * Resolves 0 when sent, 3 when no such record exists (yet), null when the shell died.
   */
  signal(recordFile: string, token: string, signal: 'TERM' | 'KILL'): Promise<number | null> {
    const nonce = randomBytes(16).toString('hex')
    return this.send<number | null>(signalRequestLine({ nonce, recordFile, token, signal }), null, (finish) => {
      const reader = new SignalReplyReader(nonce)
      return {
        push: (stream, text) => {
          if (stream === 'stdout' && reader.push(text)) finish(reader.status)
        },
        died: () => finish(null)
      }
    })
  }

  /** Ends the shell (its stdin closes, so it leaves its read loop); resolves once its stream closed. */
  close(): Promise<void> {
    this.alive = false
    this.stream.end()
    this.stream.destroy()
    return this.closed
  }

  /** Writes one request; `reading` turns the shell's output into the answer. One at a time. */
  private send<T>(line: string, ifDead: T, reading: (finish: (answer: T) => void) => Pending): Promise<T> {
    if (this.pending) throw new Error('This sandbox shell is already busy.')
    if (!this.alive) return Promise.resolve(ifDead)
    return new Promise((resolve) => {
      const pending = reading((answer) => {
        if (this.pending !== pending) return
        this.pending = undefined
        this.idle()
        resolve(answer)
      })
      this.pending = pending
      this.busy()
      this.stream.write(line)
    })
  }

  /** An idle shell must not keep the app's event loop alive. */
  private idle(): void {
    ;(this.stream as Partial<Socket>).unref?.()
  }

  private busy(): void {
    ;(this.stream as Partial<Socket>).ref?.()
  }
}

/** Runs CLEANUP_SCRIPT for a command whose shell died: its group and marked processes are killed. */
export function cleanupArgv(recordFile: string, token: string): string[] {
  return ['/bin/sh', '-c', CLEANUP_SCRIPT, 'deskclaw-cleanup', recordFile, token]
}

/**
 * The shells of one container: a command takes an idle one or starts one, and gives it back
 * when done; parallel commands each get their own, so output never mixes.
 */
export class ShellPool {
  private readonly idleShells: PersistentShell[] = []
  private readonly all = new Set<PersistentShell>()
  private closed = false
  private spareStarting?: Promise<void>

  constructor(
    private readonly docker: Docker,
    private readonly container: Docker.Container,
    private readonly outOfMemoryLine: string
  ) {}

  /** An idle shell, or a new one; keeps a spare idle shell ready so a Stop never waits for an exec. */
  async take(): Promise<PersistentShell> {
    const idle = this.takeIdle()
    // Started beside the command's own shell, not after it: the first Stop may come early.
    if (this.idleShells.length === 0 && !this.spareStarting) {
      this.spareStarting = this.start().then(
        (spare) => this.give(spare),
        () => {}
      )
      void this.spareStarting.finally(() => (this.spareStarting = undefined))
    }
    return idle ?? (await this.start())
  }

  /**
   * Signals the command recorded in `recordFile` for `token` through an idle shell (builtins
   * only), waiting up to 1 s for a just-started command's record. False when no shell could
   * deliver it: the caller then tries a fresh `docker exec`.
   */
  async signal(recordFile: string, token: string, signal: 'TERM' | 'KILL'): Promise<boolean> {
    for (let attempt = 0; attempt < 20; attempt++) {
      // The spare being started is sooner than a new one.
      if (this.idleShells.length === 0) await this.spareStarting
      const shell = this.takeIdle() ?? (await this.start().catch(() => undefined))
      if (!shell) return false
      const status = await shell.signal(recordFile, token, signal)
      this.give(shell)
      if (status === 0) return true
      if (status === null) return false
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return true
  }

  give(shell: PersistentShell): void {
    if (!this.closed && shell.alive && this.idleShells.length < MAX_IDLE_SHELLS) this.idleShells.push(shell)
    else void this.drop(shell)
  }

  async drop(shell: PersistentShell): Promise<void> {
    this.all.delete(shell)
    await shell.close()
  }

  private takeIdle(): PersistentShell | undefined {
    while (this.idleShells.length > 0) {
      const shell = this.idleShells.pop()!
      if (shell.alive) return shell
      this.all.delete(shell)
    }
    return undefined
  }

  private async start(): Promise<PersistentShell> {
    const shell = await PersistentShell.start(this.docker, this.container, this.outOfMemoryLine)
    this.all.add(shell)
    if (this.closed) void this.drop(shell)
    return shell
  }

  async close(): Promise<void> {
    this.closed = true
    this.idleShells.length = 0
    const shells = [...this.all]
    this.all.clear()
    await Promise.all(shells.map((shell) => shell.close()))
  }
}

export interface ShellExecInput {
  pool: ShellPool
  container: Docker.Container
  argv: readonly string[]
  cwd: string
  /** The allowlisted environment, `NAME=VALUE`; PWD and the run marker are added here. */
  env: readonly string[]
  request: ExecRequest
}

/** The last stderr line of a command whose persistent shell died under it. */
export const SHELL_LOST_LINE = 'deskclaw: the sandbox shell running this command ended before it (was it killed?); the command was stopped.'

/**
 * One command through a persistent shell of the container, stopped as armStop says. Undefined
 * when two shells in a row died before starting it (it surely did not run): the caller falls back
 * to a fresh `docker exec`. Engine errors (the container is gone) are thrown.
 */
export async function runInShell(input: ShellExecInput): Promise<DockerExecOutcome | undefined> {
  const { request, pool, container } = input
  const token = randomUUID()
  const env = [...input.env, `PWD=${input.cwd}`, `DESKCLAW_RUN_ID=${token}`]
  for (let attempt = 0; attempt < 2; attempt++) {
    const shell = await pool.take()
    const output = new OutputCollector(request.onOutput)
    const run = shell.run({ token, cwd: input.cwd, env, argv: input.argv, onOutput: (stream, text) => output.push(stream, text) })
    const stop = armStop(request, {
      container,
      signal: async (signal) => {
        if (!(await pool.signal(shell.recordFile, token, signal))) await signalGroup(container, shell.recordFile, token, signal)
      },
      ended: run.then(() => {}),
      abandon: () => void pool.drop(shell)
    })
    try {
      const outcome = await run
      await stop.settled()
      const stopped = stop.timedOut || stop.cancelled
      if (!outcome.started && !stopped && !stop.containerKilled) {
        // The shell was gone before it read the request: nothing ran, so another shell may run it.
        void pool.drop(shell)
        continue
      }
      let containerKilled = stop.containerKilled
      if (outcome.shellDied && !containerKilled) {
        // It may still be running without its shell: end its group and its marked processes.
        const cleaned = await execQuiet(container, cleanupArgv(shell.recordFile, token)).catch(() => undefined)
        if (cleaned?.exitCode !== 0) {
          containerKilled = true
          await container.kill().catch(() => {})
        }
      }
      if (outcome.shellDied && outcome.started && !stopped) output.push('stderr', `${SHELL_LOST_LINE}\n`)
      pool.give(shell)
      return {
        exitCode: outcome.shellDied || containerKilled ? null : outcome.status,
        stdout: output.text('stdout'),
        stderr: output.text('stderr'),
        truncated: output.truncated,
        timedOut: stop.timedOut,
        cancelled: stop.cancelled,
        containerKilled,
        shellLost: outcome.shellDied,
        output
      }
    } finally {
      stop.dispose()
    }
  }
  return undefined
}
