/**
 * run_code end to end (docs/tools.md, "run_code"), each case beside its floor in the same run (no
 * timing assertions; numbers are for docs/benchmarks.md). A row and its floor run in turn within
 * each iteration, so they see the same machine load. 20 measured runs each, after 3 warm-up runs.
 * - python, native (level trusted, the shell runtime native): against `python3 -c pass` spawned bare
 *   (the same `python3`, from PATH, as the tool's command finds it);
 * - python and javascript in bwrap (level standard, found for code while the shell runtime is
 *   native): against the same `bwrap … python3 -c pass` / `node -e 0` spawned bare;
 * - python in docker, warm container (level strict: the read-only container): against the same
 *   runtime's exec of the same argv without the tool (what the tool adds: the level decision, the
 *   preview's check and the result framing).
 * Run: npx vitest bench --run --project unit bench/run-code.bench.ts
 */
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, bench, describe } from 'vitest'
import type { CodeStrictness } from '../src/shared'
import { BwrapRuntime, bwrapArgs, commandEnv, DockerRuntime, NativeRuntime, SelectedRuntime, type Runtime } from '../src/main/runtime'
import { createCodeTools, ToolRegistry } from '../src/main/tools'
import { dockerTestImageReady, repoRoot, tempWorkspace } from '../test/integration/runtime/helpers'
import { floorRatioTable, LatencyRecorder, latencyTable } from './runtime-latency'

const RUNS = 20
const options = { iterations: RUNS, time: 0, warmupIterations: 3, warmupTime: 0 }
const CODE_IMAGE = 'deskclaw/test-sandbox:code'
const NOWHERE = 'tcp://127.0.0.1:1'

const workspace = tempWorkspace('deskclaw-run-code-bench-')
const bwrapOk = (await BwrapRuntime.probe()).ok
const dockerOk = (await dockerTestImageReady()) && buildCodeImage()
const recorder = new LatencyRecorder()
const closers: Array<() => Promise<unknown>> = []

function buildCodeImage(): boolean {
  execFileSync('sh', [path.join(repoRoot, 'scripts/build-code-test-image.sh'), CODE_IMAGE], { stdio: 'ignore' })
  return true
}

/** The tool as the app builds it: preview (where the approval is decided), then the run. */
function runCode(runtime: Runtime, level: CodeStrictness, sandboxDockerHost = NOWHERE) {
  const sandbox = new SelectedRuntime('auto', { docker: { dockerHost: sandboxDockerHost }, failClosed: true })
  closers.push(() => sandbox.close(), async () => runtime.close?.())
  const registry = new ToolRegistry([createCodeTools({ runtime, sandbox, strictness: () => level })])
  const tool = registry.get('run_code')!
  return async (args: { language: 'python' | 'javascript'; code: string }) => {
    await tool.preview(args, { workspace })
    const output = await registry.execute('run_code', args, { workspace, conversationId: 'bench', runId: 'r', callId: 'c', signal: new AbortController().signal, onOutput: () => {} })
    if (output.isError) throw new Error(output.forLlm)
  }
}

/** The floors get what the tool's commands get (the allowlist, command-env.ts), not this process's NODE_OPTIONS and the like. */
const floorEnv = commandEnv({ runtime: 'native', tempDir: '/tmp' })

function spawnWait(file: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: 'ignore', env: floorEnv })
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited ${code}`))))
  })
}

function bareBwrap(argv: string[]): string[] {
  const args = bwrapArgs({ argv, cwd: workspace, timeoutMs: 0 }, true)
  const at = args.indexOf('--info-fd')
  return at < 0 ? args : [...args.slice(0, at), ...args.slice(at + 2)]
}

const PY = { language: 'python', code: 'pass' } as const
const JS = { language: 'javascript', code: '0' } as const
// What the tool runs: `python3` and `node` as the command's PATH finds them (the app's PATH).
const python3 = 'python3'

const FLOORS: Array<[row: string, floor: string]> = [
  ['run_code python, native (trusted)', 'floor: python3 -c pass, spawned bare'],
  ['run_code python, bwrap (standard)', 'floor: the same bwrap … python3 -c pass, spawned bare'],
  ['run_code javascript, bwrap (standard)', 'floor: the same bwrap … node -e 0, spawned bare'],
  ['run_code python, docker warm (strict, read-only container)', 'floor: the same docker runtime, exec of python3 -c pass']
]

const paired = (cases: Array<[name: string, run: () => Promise<unknown>]>) => async () => {
  for (const [name, run] of cases) await recorder.time(name, run)
}

afterAll(async () => {
  for (const close of closers) await close()
  fs.rmSync(workspace, { recursive: true, force: true })
  const summaries = recorder.summaries(RUNS)
  console.log(`\nrun_code latency (ms, last ${RUNS} runs each):\n${latencyTable(summaries)}\n`)
  console.log(`Against the floors (medians, same run):\n${floorRatioTable(summaries, FLOORS)}\n`)
})

describe('run_code end to end, each beside its floor (measured in turn, same load)', () => {
  const nativeCode = runCode(new NativeRuntime(), 'trusted')
  bench(
    'native | floor',
    paired([
      ['run_code python, native (trusted)', () => nativeCode(PY)],
      ['floor: python3 -c pass, spawned bare', () => spawnWait(python3, ['-c', 'pass'])]
    ]),
    options
  )

  const bwrapCode = runCode(new NativeRuntime(), 'standard')
  bench.skipIf(!bwrapOk)(
    'bwrap | floors',
    paired([
      ['run_code python, bwrap (standard)', () => bwrapCode(PY)],
      ['floor: the same bwrap … python3 -c pass, spawned bare', () => spawnWait('bwrap', bareBwrap([python3, '-c', 'pass']))],
      ['run_code javascript, bwrap (standard)', () => bwrapCode(JS)],
      ['floor: the same bwrap … node -e 0, spawned bare', () => spawnWait('bwrap', bareBwrap(['node', '-e', '0']))]
    ]),
    options
  )

  const docker = new DockerRuntime({ image: CODE_IMAGE })
  const dockerCode = runCode(docker, 'strict')
  const dockerFloor = () => docker.exec({ argv: ['python3', '-c', 'pass'], cwd: workspace, workspace, workspaceReadOnly: true, conversationId: 'bench', timeoutMs: 30_000 })
  bench.skipIf(!dockerOk)(
    'docker | floor',
    paired([
      ['run_code python, docker warm (strict, read-only container)', () => dockerCode(PY)],
      ['floor: the same docker runtime, exec of python3 -c pass', dockerFloor]
    ]),
    { ...options, setup: async () => void (await dockerFloor()) }
  )
})
