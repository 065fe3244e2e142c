import { randomBytes, randomUUID } from 'node:crypto'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import type Docker from 'dockerode'
import { armStop, execQuiet, type DockerExecOutcome } from './docker-exec'
import { CLEANUP_SCRIPT, FrameReader, runRequestLine, shellArgv } from './docker-shell-protocol'
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

interface Running {
  readers: Record<StreamName, FrameReader>
  /** Called after each piece of output: finishes once both streams ended. */
  check(): void
  finish(outcome: ShellRunOutcome): void
}

/**
 * One long-lived `/bin/sh` in a sandbox container, started by one `docker exec` with stdin
 * attached; it runs one command at a time (docs/runtimes.md, "The persistent shell").
 */
export class PersistentShell {
  alive = true
  private running?: Running
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
      const write = (chunk: Buffer): boolean => {
        const text = decoder.write(chunk)
        const running = this.running
        if (running) {
          running.readers[name].push(text)
          running.check()
        }
        return true
      }
      return { write } as unknown as NodeJS.WritableStream
    }
    docker.modem.demuxStream(stream, sink('stdout'), sink('stderr'))
    this.closed = new Promise((resolve) => {
      const died = (): void => {
        this.alive = false
        const running = this.running
        if (running) {
          running.readers.stdout.flush()
          running.readers.stderr.flush()
          running.finish({ started: started(running), status: null, shellDied: true })
        }
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
    if (this.running) throw new Error('This sandbox shell is already running a command.')
    if (!this.alive) return Promise.resolve({ started: false, status: null, shellDied: true })
    const nonce = randomBytes(16).toString('hex')
    return new Promise((resolve) => {
      const readers = {
        stdout: new FrameReader(nonce, (text) => command.onOutput('stdout', text)),
        stderr: new FrameReader(nonce, (text) => command.onOutput('stderr', text))
      }
      const running: Running = {
        readers,
        check: () => {
          if (readers.stdout.state === 'ended' && readers.stderr.state === 'ended') {
            running.finish({ started: true, status: readers.stdout.status, shellDied: false })
          }
        },
        finish: (outcome) => {
          if (this.running !== running) return
          this.running = undefined
          this.idle()
          resolve(outcome)
        }
      }
      this.running = running
      this.busy()
      this.stream.write(runRequestLine({ nonce, token: command.token, cwd: command.cwd, env: command.env, argv: command.argv }))
    })
  }

  /** Ends the shell (its stdin closes, so it leaves its read loop); resolves once its stream closed. */
  close(): Promise<void> {
    this.alive = false
    this.stream.end()
    this.stream.destroy()
    return this.closed
  }

  /** An idle shell must not keep the app's event loop alive. */
  private idle(): void {
    ;(this.stream as Partial<Socket>).unref?.()
  }

  private busy(): void {
    ;(this.stream as Partial<Socket>).ref?.()
  }
}

function started(running: Running): boolean {
  return running.readers.stdout.state !== 'before-start' || running.readers.stderr.state !== 'before-start'
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

  constructor(
    private readonly docker: Docker,
    private readonly container: Docker.Container,
    private readonly outOfMemoryLine: string
  ) {}

  async take(): Promise<PersistentShell> {
    while (this.idleShells.length > 0) {
      const shell = this.idleShells.pop()!
      if (shell.alive) return shell
      this.all.delete(shell)
    }
    const shell = await PersistentShell.start(this.docker, this.container, this.outOfMemoryLine)
    this.all.add(shell)
    return shell
  }

  give(shell: PersistentShell): void {
    if (shell.alive && this.idleShells.length < MAX_IDLE_SHELLS) this.idleShells.push(shell)
    else void this.drop(shell)
  }

  async drop(shell: PersistentShell): Promise<void> {
    this.all.delete(shell)
    await shell.close()
  }

  async close(): Promise<void> {
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
      recordFile: shell.recordFile,
      token,
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
