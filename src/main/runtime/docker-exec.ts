import { randomUUID } from 'node:crypto'
import type { Duplex } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import type Docker from 'dockerode'
import { MARKER_SCAN, OOM_COUNT } from './docker-shell-protocol'
import { OutputCollector } from './output-collector'
import { KILL_GRACE_MS } from './spawn-collect'
import type { ExecRequest } from './types'

/**
 * The fallback when no persistent shell can run the command (docs/runtimes.md): runs it as the
 * leader of a new session (so it and everything it starts share one process group), records
 * `token pgid` in /tmp so a later `docker exec` can signal it, waits, kills whatever the command
 * left running in the background (its group and every process carrying `DESKCLAW_RUN_ID=$1`:
 * children that left the group with `setsid` or a double fork), and exits with its status.
 * Around it, the cgroup's oom_kill count: when the kernel killed something for memory it prints
 * `$2` as the last line of stderr. `$1` is the token, `$2` the out-of-memory line; argv follows.
 */
const EXEC_WRAPPER = [
  't=$1; m=$2; shift 2',
  OOM_COUNT,
  'ooms; before=$n',
  'DESKCLAW_RUN_ID="$t" setsid "$@" &',
  'g=$!',
  'if ! echo "$t $g" > "/tmp/.deskclaw-exec-$t"; then',
  '  kill -KILL -"$g"',
  '  echo "deskclaw: cannot record the command in /tmp (is the sandbox /tmp full?)" >&2',
  '  exit 125',
  'fi',
  'wait "$g"',
  's=$?',
  'kill -KILL -"$g" 2>/dev/null',
  MARKER_SCAN,
  'rm -f "/tmp/.deskclaw-exec-$t"',
  'ooms; [ "$n" -gt "$before" ] && echo "$m" >&2',
  'exit "$s"'
].join('\n')

/**
 * Sends `$3` to the group recorded in file `$1` for token `$2` (`token pgid`); waits briefly for
 * a just-started command. Exits 3 when no record of that command appears.
 */
const SIGNAL_SCRIPT = [
  'f=$1; t=$2; i=0',
  'while [ "$i" -lt 20 ]; do',
  '  if read -r rt rg < "$f" 2>/dev/null && [ "$rt" = "$t" ]; then kill -"$3" -"$rg" 2>/dev/null; exit 0; fi',
  '  sleep 0.05; i=$((i + 1))',
  'done',
  'exit 3'
].join('\n')

/** After SIGKILL, how long the exec may take to end before the whole container is killed. */
const CONTAINER_KILL_AFTER_MS = 2_000

export interface DockerExecInput {
  docker: Docker
  /** Printed as the last stderr line when the kernel killed something for memory meanwhile. */
  outOfMemoryLine: string
  container: Docker.Container
  argv: readonly string[]
  cwd: string
  env: string[]
  request: ExecRequest
}

export interface DockerExecOutcome {
  exitCode: number | null
  stdout: string
  stderr: string
  truncated: boolean
  timedOut: boolean
  cancelled: boolean
  /** Signals could not stop the command (e.g. the pids limit left no room for `kill`): the container was killed. */
  containerKilled: boolean
  /** The persistent shell died during the command: no exit status; what it left was killed. */
  shellLost: boolean
  /** Lets the caller add a closing line (out of memory…) to the same output. */
  output: OutputCollector
}

/** How a timeout or cancel reaches the command: its group by signal, the container as the last resort. */
export interface StopTarget {
  container: Docker.Container
  /** Sends the signal to the command's process group (resolves when done or given up). */
  signal(signal: 'TERM' | 'KILL'): Promise<void>
  /** Resolves when the command's result is complete (or its stream is gone). */
  ended: Promise<void>
  /** After the container was killed: give up on the stream. */
  abandon(): void
}

export interface StopState {
  timedOut: boolean
  cancelled: boolean
  containerKilled: boolean
  /** Settles once a started stop sequence is over. */
  settled(): Promise<void>
  dispose(): void
}

/**
 * Arms the request's timeout and AbortSignal. Either sends SIGTERM to the command's process
 * group, then SIGKILL after KILL_GRACE_MS; if even that cannot be delivered, the container is
 * killed — the command must really die.
 */
export function armStop(request: ExecRequest, target: StopTarget): StopState {
  let stopping: Promise<void> | undefined
  const state: StopState = {
    timedOut: false,
    cancelled: false,
    containerKilled: false,
    settled: async () => {
      await stopping
    },
    dispose: () => {
      clearTimeout(timer)
      request.signal?.removeEventListener('abort', onAbort)
    }
  }
  const stop = (): void => {
    stopping ??= (async () => {
      await target.signal('TERM')
      if (await endsWithin(target.ended, KILL_GRACE_MS)) return
      await target.signal('KILL')
      if (await endsWithin(target.ended, CONTAINER_KILL_AFTER_MS)) return
      state.containerKilled = true
      await target.container.kill().catch(() => {})
      target.abandon()
    })()
  }
  const timer =
    request.timeoutMs > 0 && request.timeoutMs <= 2 ** 31 - 1
      ? setTimeout(() => {
          state.timedOut = true
          stop()
        }, request.timeoutMs)
      : undefined
  const onAbort = (): void => {
    state.cancelled = true
    stop()
  }
  if (request.signal?.aborted) onAbort()
  else request.signal?.addEventListener('abort', onAbort, { once: true })
  return state
}

/**
 * One command through its own `docker exec` (the fallback when no persistent shell can run it),
 * output demultiplexed live into `onOutput`; stopped as armStop says.
 */
export async function runDockerExec(input: DockerExecInput): Promise<DockerExecOutcome> {
  const { request } = input
  const token = randomUUID()
  const exec = await input.container.exec({
    Cmd: ['/bin/sh', '-c', EXEC_WRAPPER, 'deskclaw-exec', token, input.outOfMemoryLine, ...input.argv],
    AttachStdin: false,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    WorkingDir: input.cwd,
    Env: input.env
  })
  const stream = (await exec.start({ hijack: true, stdin: false })) as Duplex
  const output = new OutputCollector(request.onOutput)
  const ended = streamEnded(stream)
  input.docker.modem.demuxStream(stream, textSink((chunk) => output.push('stdout', chunk)), textSink((chunk) => output.push('stderr', chunk)))

  const stop = armStop(request, {
    container: input.container,
    signal: (signal) => signalGroup(input.container, `/tmp/.deskclaw-exec-${token}`, token, signal),
    ended,
    abandon: () => stream.destroy()
  })
  try {
    await ended
    await stop.settled()
    return {
      exitCode: stop.containerKilled ? null : await exitCodeOf(exec),
      stdout: output.text('stdout'),
      stderr: output.text('stderr'),
      truncated: output.truncated,
      timedOut: stop.timedOut,
      cancelled: stop.cancelled,
      containerKilled: stop.containerKilled,
      shellLost: false,
      output
    }
  } finally {
    stop.dispose()
  }
}

/** Runs a short helper command in the container and waits for it; resolves its exit code. */
export async function execQuiet(container: Docker.Container, argv: string[], user?: string): Promise<{ exitCode: number | null; stdout: string }> {
  const exec = await container.exec({ Cmd: argv, AttachStdout: true, AttachStderr: true, Tty: false, User: user })
  const stream = (await exec.start({ hijack: true, stdin: false })) as Duplex
  const chunks: Buffer[] = []
  stream.on('data', (chunk: Buffer) => chunks.push(chunk))
  await streamEnded(stream)
  return { exitCode: await exitCodeOf(exec), stdout: demuxedText(Buffer.concat(chunks)) }
}

/** Signals the group recorded in `recordFile` for `token` through a fresh `docker exec`. */
export async function signalGroup(container: Docker.Container, recordFile: string, token: string, signal: 'TERM' | 'KILL'): Promise<void> {
  // Under a fork bomb `docker exec` itself may fail to get a process: try a few times.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const result = await execQuiet(container, ['/bin/sh', '-c', SIGNAL_SCRIPT, 'deskclaw-signal', recordFile, token, signal])
      if (result.exitCode === 0 || result.exitCode === 3) return
    } catch {
      // The container is gone or cannot exec right now.
    }
  }
}

async function exitCodeOf(exec: Docker.Exec): Promise<number | null> {
  // The stream can end a moment before the engine records the exit code.
  for (let attempt = 0; attempt < 50; attempt++) {
    const info = await exec.inspect().catch(() => undefined)
    if (!info) return null
    if (!info.Running && info.ExitCode !== null) return info.ExitCode
    await delay(10)
  }
  return null
}

function streamEnded(stream: Duplex): Promise<void> {
  return new Promise((resolve) => {
    stream.once('end', () => resolve())
    stream.once('close', () => resolve())
    stream.once('error', () => resolve())
  })
}

function endsWithin(ended: Promise<void>, ms: number): Promise<boolean> {
  return Promise.race([ended.then(() => true), delay(ms).then(() => false)])
}

/** What demuxStream writes to: decodes UTF-8 across frame boundaries, synchronously. */
function textSink(onText: (chunk: string) => void): NodeJS.WritableStream {
  const decoder = new StringDecoder('utf8')
  return { write: (chunk: Buffer) => (onText(decoder.write(chunk)), true) } as unknown as NodeJS.WritableStream
}

/** Docker's 8-byte-header framing, stdout and stderr frames joined (for helper commands). */
function demuxedText(buffer: Buffer): string {
  let text = ''
  let offset = 0
  while (offset + 8 <= buffer.length) {
    const length = buffer.readUInt32BE(offset + 4)
    text += buffer.subarray(offset + 8, offset + 8 + length).toString('utf8')
    offset += 8 + length
  }
  return text
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
