import { randomUUID } from 'node:crypto'
import type { Duplex } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import type Docker from 'dockerode'
import { OutputCollector } from './output-collector'
import { KILL_GRACE_MS } from './spawn-collect'
import type { ExecRequest } from './types'

/**
 * Runs the command as the leader of a new session (so it and everything it starts share one
 * process group), records that group in /tmp so a later `docker exec` can signal it, waits,
 * kills whatever the command left running in the background, and exits with its status.
 * "Whatever it left" is its group and every process carrying `DESKCLAW_RUN_ID=$1` in its
 * environment: children that left the group with `setsid` or a double fork (docs/runtimes.md,
 * "A run owns its processes"); only this uid's processes can be read or signalled.
 * It also compares the cgroup's oom_kill counter (v2 memory.events, v1 memory.oom_control)
 * before and after, with shell builtins only (no extra process), and when the kernel killed
 * something for memory prints `$2` as the last line of stderr.
 * `$1` is the record's token, `$2` the out-of-memory line; the command's argv follows.
 */
const EXEC_WRAPPER = [
  't=$1; m=$2; shift 2',
  'ooms() { n=0; for f in /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control; do',
  '  [ -r "$f" ] || continue',
  '  while read -r k v; do [ "$k" = oom_kill ] && n=$v; done < "$f"',
  'done; }',
  'ooms; before=$n',
  'DESKCLAW_RUN_ID="$t" setsid "$@" &',
  'g=$!',
  'if ! echo "$g" > "/tmp/.deskclaw-exec-$t"; then',
  '  kill -KILL -"$g"',
  '  echo "deskclaw: cannot record the command in /tmp (is the sandbox /tmp full?)" >&2',
  '  exit 125',
  'fi',
  'wait "$g"',
  's=$?',
  'kill -KILL -"$g" 2>/dev/null',
  'r=0',
  'while [ "$r" -lt 5 ]; do',
  '  found=',
  '  for d in /proc/[0-9]*; do',
  '    [ "${d#/proc/}" != "$$" ] || continue',
  '    if { tr "\\0" "\\n" < "$d/environ" | grep -qx "DESKCLAW_RUN_ID=$t"; } 2>/dev/null; then kill -KILL "${d#/proc/}" 2>/dev/null && found=1; fi',
  '  done',
  '  [ -n "$found" ] || break',
  '  r=$((r + 1))',
  'done',
  'rm -f "/tmp/.deskclaw-exec-$t"',
  'ooms; [ "$n" -gt "$before" ] && echo "$m" >&2',
  'exit "$s"'
].join('\n')

/** Sends `$2` to the group recorded under token `$1`; waits briefly for a just-started command. */
const SIGNAL_SCRIPT = [
  'f="/tmp/.deskclaw-exec-$1"',
  'i=0',
  'while [ ! -s "$f" ] && [ "$i" -lt 20 ]; do sleep 0.05; i=$((i + 1)); done',
  '[ -s "$f" ] || exit 3',
  'kill -"$2" -"$(cat "$f")" 2>/dev/null',
  'exit 0'
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
  /** Lets the caller add a closing line (out of memory…) to the same output. */
  output: OutputCollector
}

/**
 * One command through `docker exec`, output demultiplexed live into `onOutput`. On timeout or
 * cancel the command's process group gets SIGTERM, then SIGKILL after KILL_GRACE_MS; if even
 * that cannot be delivered, the container is killed — the command must really die.
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

  let timedOut = false
  let cancelled = false
  let containerKilled = false
  let stopping: Promise<void> | undefined
  const stop = (): void => {
    stopping ??= (async () => {
      await signalGroup(input.container, token, 'TERM')
      if (await endsWithin(ended, KILL_GRACE_MS)) return
      await signalGroup(input.container, token, 'KILL')
      if (await endsWithin(ended, CONTAINER_KILL_AFTER_MS)) return
      containerKilled = true
      await input.container.kill().catch(() => {})
      stream.destroy()
    })()
  }
  const timer =
    request.timeoutMs > 0 && request.timeoutMs <= 2 ** 31 - 1
      ? setTimeout(() => {
          timedOut = true
          stop()
        }, request.timeoutMs)
      : undefined
  const onAbort = (): void => {
    cancelled = true
    stop()
  }
  if (request.signal?.aborted) onAbort()
  else request.signal?.addEventListener('abort', onAbort, { once: true })

  try {
    await ended
    await stopping
    return {
      exitCode: containerKilled ? null : await exitCodeOf(exec),
      stdout: output.text('stdout'),
      stderr: output.text('stderr'),
      truncated: output.truncated,
      timedOut,
      cancelled,
      containerKilled,
      output
    }
  } finally {
    clearTimeout(timer)
    request.signal?.removeEventListener('abort', onAbort)
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

async function signalGroup(container: Docker.Container, token: string, signal: 'TERM' | 'KILL'): Promise<void> {
  // Under a fork bomb `docker exec` itself may fail to get a process: try a few times.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const result = await execQuiet(container, ['/bin/sh', '-c', SIGNAL_SCRIPT, 'deskclaw-signal', token, signal])
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
