/**
 * Wall time of `true` through each runtime, each beside its floor in the same run (no timing
 * assertions; numbers are for docs/benchmarks.md). A row and its floors run in turn within each
 * iteration, so they see the same machine load. 50 measured runs each; after the tinybench table
 * (whose times are per iteration, all cases together) a median / p95 table and a table of ratios
 * to the floors are printed.
 * - native: against a bare `/bin/sh -c true` spawn;
 * - bwrap: against the same `bwrap … /bin/sh -c true` spawned bare, and against a shell kept open
 *   inside one bwrap sandbox, with the builtin and with a process (what a long-lived bwrap sandbox
 *   per conversation could reach);
 * - docker, warm container, through the persistent shell: against a raw shell kept open in the
 *   same container (one exec with stdin, `true; echo n` per run: the builtin), and the same shell
 *   starting `/bin/sh -c true` as a process, as every real command is;
 * - docker, warm container, one exec per command (`persistentShell: false`, the fallback): against
 *   a bare exec create + start + inspect of `true` through the engine API;
 * - docker cold: create + start + exec + remove.
 * Run: npx vitest bench --run --project unit bench/runtime.bench.ts
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import fs from 'node:fs'
import type { Duplex } from 'node:stream'
import { afterAll, bench, describe } from 'vitest'
import { BwrapRuntime, DockerRuntime, NativeRuntime, bwrapArgs, type Runtime } from '../src/main/runtime'
import { dockerTestImageReady, TEST_IMAGE, tempWorkspace } from '../test/integration/runtime/helpers'
import { floorRatioTable, LatencyRecorder, latencyTable } from './runtime-latency'

const RUNS = 50
const options = { iterations: RUNS, time: 0, warmupIterations: 3, warmupTime: 0 }

const workspace = tempWorkspace('deskclaw-runtime-bench-')
const bwrapOk = (await BwrapRuntime.probe()).ok
const dockerOk = await dockerTestImageReady()
const recorder = new LatencyRecorder()

const native = new NativeRuntime()
const bwrap = new BwrapRuntime()
const docker = new DockerRuntime({ image: TEST_IMAGE })
const dockerExecEach = new DockerRuntime({ image: TEST_IMAGE, persistentShell: false })
let coldConversation = 0

const runTrue = (runtime: Runtime, conversationId?: string) =>
  runtime.exec({ command: 'true', cwd: workspace, conversationId, timeoutMs: 30_000 })

/** Which row is measured against which floor. */
const FLOORS: Array<[row: string, floor: string]> = [
  ['native', 'floor: sh -c true, spawned bare'],
  ['bwrap', 'floor: the same bwrap … sh -c true, spawned bare'],
  ['bwrap', 'floor: a shell kept open inside one bwrap sandbox'],
  ['bwrap', 'floor: a shell kept open inside one bwrap sandbox, running /bin/sh -c true'],
  ['docker, warm container (persistent shell)', 'floor: a raw shell kept open in the container'],
  ['docker, warm container (persistent shell)', 'floor: a raw shell kept open in the container, running /bin/sh -c true'],
  ['docker, warm container, one exec per command (fallback)', 'floor: bare exec create + start + inspect of true']
]

afterAll(async () => {
  await Promise.all([docker.close(), dockerExecEach.close()])
  for (const close of closers) await close()
  fs.rmSync(workspace, { recursive: true, force: true })
  const summaries = recorder.summaries(RUNS)
  console.log(`\nRuntime latency of \`true\` (ms, last ${RUNS} runs each):\n${latencyTable(summaries)}\n`)
  console.log(`Against the floors (medians, same run):\n${floorRatioTable(summaries, FLOORS, 2)}\n`)
})

const closers: Array<() => Promise<void> | void> = []

/** Spawns a process and resolves when it exits. */
function spawnWait(file: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: 'ignore' })
    child.once('error', reject)
    child.once('exit', () => resolve())
  })
}

/**
 * A shell reading `true; echo N` lines from stdin, kept open; `round()` sends one and waits for
 * its echo. `write` sends a line, `onData` gets the raw output.
 */
function keptOpenShell(write: (line: string) => void, onData: (listener: (text: string) => void) => void): (command: string) => Promise<void> {
  let seen = ''
  let waiting: { marker: string; resolve: () => void } | undefined
  let n = 0
  onData((text) => {
    seen += text
    if (waiting && seen.includes(waiting.marker)) {
      seen = ''
      const done = waiting.resolve
      waiting = undefined
      done()
    }
  })
  return (command) =>
    new Promise<void>((resolve) => {
      const marker = `round-${++n}\n`
      waiting = { marker, resolve }
      write(`${command}; echo round-${n}\n`)
    })
}

/** The floor of the persistent shell: a raw `sh` reading lines, in the same warm container. */
async function rawContainerShell(): Promise<(command: string) => Promise<void>> {
  await runTrue(docker, 'warm')
  const container = docker.docker.getContainer((await docker.containerId('warm'))!)
  const exec = await container.exec({ Cmd: ['/bin/sh', '-c', 'while IFS= read -r l; do eval "$l"; done'], AttachStdin: true, AttachStdout: true, AttachStderr: true })
  const stream = (await exec.start({ hijack: true, stdin: true })) as Duplex
  closers.push(() => void stream.destroy())
  return keptOpenShell(
    (line) => stream.write(line),
    (listener) => stream.on('data', (chunk: Buffer) => listener(chunk.toString('latin1')))
  )
}

/** What a long-lived bwrap sandbox could reach: a raw `sh` reading lines inside one bwrap. */
function rawBwrapShell(): (command: string) => Promise<void> {
  const args = withoutInfoFd(bwrapArgs({ argv: ['/bin/sh', '-c', 'while IFS= read -r l; do eval "$l"; done'], cwd: workspace, timeoutMs: 0 }, true))
  const child: ChildProcessWithoutNullStreams = spawn('bwrap', args)
  closers.push(() => void child.kill('SIGKILL'))
  return keptOpenShell(
    (line) => child.stdin.write(line),
    (listener) => child.stdout.on('data', (chunk: Buffer) => listener(chunk.toString('latin1')))
  )
}

function withoutInfoFd(args: string[]): string[] {
  const at = args.indexOf('--info-fd')
  return at < 0 ? args : [...args.slice(0, at), ...args.slice(at + 2)]
}

/** The floor of one exec per command: exec create + start + inspect of `true`, no wrapper. */
async function bareExecTrue(): Promise<void> {
  const container = dockerExecEach.docker.getContainer((await dockerExecEach.containerId('warm'))!)
  const exec = await container.exec({ Cmd: ['true'], AttachStdout: true, AttachStderr: true })
  const stream = (await exec.start({ hijack: true, stdin: false })) as Duplex
  stream.resume()
  await new Promise((resolve) => stream.once('end', resolve))
  for (let info = await exec.inspect(); info.Running; info = await exec.inspect()) await new Promise((resolve) => setTimeout(resolve, 1))
}

/** Runs each case once, in turn, recording each: a row and its floors see the same load. */
const paired = (cases: Array<[name: string, run: () => Promise<unknown>]>) => async () => {
  for (const [name, run] of cases) await recorder.time(name, run)
}

let bwrapShell: ((command: string) => Promise<void>) | undefined
let containerShell: Promise<(command: string) => Promise<void>> | undefined
const inBwrapShell = (command: string) => (bwrapShell ??= rawBwrapShell())(command)
const inContainerShell = async (command: string) => (await (containerShell ??= rawContainerShell()))(command)

describe('runtime: `true` end to end, each beside its floor (measured in turn, same load)', () => {
  bench(
    'native | floor',
    paired([
      ['native', () => runTrue(native)],
      ['floor: sh -c true, spawned bare', () => spawnWait('/bin/sh', ['-c', 'true'])]
    ]),
    options
  )

  bench.skipIf(!bwrapOk)(
    'bwrap | floors',
    paired([
      ['bwrap', () => runTrue(bwrap)],
      ['floor: the same bwrap … sh -c true, spawned bare', () => spawnWait('bwrap', withoutInfoFd(bwrapArgs({ command: 'true', cwd: workspace, timeoutMs: 0 }, true)))],
      ['floor: a shell kept open inside one bwrap sandbox', () => inBwrapShell('true')],
      ['floor: a shell kept open inside one bwrap sandbox, running /bin/sh -c true', () => inBwrapShell('/bin/sh -c true')]
    ]),
    options
  )

  bench.skipIf(!dockerOk)(
    'docker persistent shell | floors',
    paired([
      ['docker, warm container (persistent shell)', () => runTrue(docker, 'warm')],
      ['floor: a raw shell kept open in the container', () => inContainerShell('true')],
      ['floor: a raw shell kept open in the container, running /bin/sh -c true', () => inContainerShell('/bin/sh -c true')]
    ]),
    {
      ...options,
      // The first command creates the container and starts the shell: not part of "warm".
      setup: async () => {
        await runTrue(docker, 'warm')
      }
    }
  )

  bench.skipIf(!dockerOk)(
    'docker exec per command | floor',
    paired([
      ['docker, warm container, one exec per command (fallback)', () => runTrue(dockerExecEach, 'warm')],
      ['floor: bare exec create + start + inspect of true', bareExecTrue]
    ]),
    {
      ...options,
      setup: async () => {
        await runTrue(dockerExecEach, 'warm')
      }
    }
  )

  bench.skipIf(!dockerOk)(
    'docker cold: create + start + exec + remove',
    paired([
      [
        'docker cold: create + start + exec + remove',
        async () => {
          const conversationId = `cold-${++coldConversation}`
          await runTrue(docker, conversationId)
          await docker.closeConversation(conversationId)
        }
      ]
    ]),
    options
  )
})
