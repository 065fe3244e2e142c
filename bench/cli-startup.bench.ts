/**
 * How soon the `deskclaw` command answers (issue 28, item 4), against its floor in the same run:
 * `node -e` printing one line. Cases: `--help`, `risk CMD` (to exit), and `run --json` to its first
 * event (`run_started`) and to exit, against the scripted OpenAI-compatible server on loopback.
 * Every sample is a fresh process, as a user's shell starts it (bin/deskclaw.js, with Node's
 * compile cache where the Node version has one). No timing assertions; numbers are for the report.
 * Run: npx vitest bench --run --project unit bench/cli-startup.bench.ts  (after npm run build)
 * DESKCLAW_BENCH_CLI=path/to/cli.js measures another build.
 * On Linux it also records the child's CPU time (user + system, from /proc, 10 ms ticks) when its
 * first line arrived: on a loaded machine wall times swing, the CPU a command needs does not.
 * `run` is measured with and without the CLI's code cache (bin/code-cache.js; DESKCLAW_CODE_CACHE=0).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { cliPath } from '../test/helpers/cli'
import { startScriptedOpenAI } from '../test/fixtures/scripted-openai'
import type { ScriptedServer } from '../test/fixtures/scripted-types'
import { LatencyRecorder, latencyTable } from './runtime-latency'

const RUNS = 15
const options = { iterations: RUNS, time: 0, warmupIterations: 2, warmupTime: 0 }
const cli = process.env.DESKCLAW_BENCH_CLI ?? cliPath
const root = mkdtempSync(join(tmpdir(), 'deskclaw-cli-bench-'))
const env = { ...process.env, DESKCLAW_HOME: join(root, 'home'), NODE_OPTIONS: '' }
const recorder = new LatencyRecorder()
const cpuRecorder = new LatencyRecorder()
let server: ScriptedServer

/** A process's CPU time so far in ms (utime + stime from /proc, in clock ticks of 10 ms), NaN where there is no /proc. */
function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return NaN
  }
}

/** Runs a process; resolves with ms to its first stdout line and to its exit, and its CPU ms at the first line. */
function timeProcess(argv: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ firstLineMs: number; exitMs: number; firstLineCpuMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let firstLineMs = NaN
    let firstLineCpuMs = NaN
    let stderr = ''
    const child = spawn(process.execPath, argv, { env: { ...env, ...extraEnv }, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', (chunk: Buffer) => {
      if (Number.isNaN(firstLineMs) && chunk.includes(10)) {
        firstLineMs = performance.now() - started
        firstLineCpuMs = cpuMsOf(child.pid)
      }
    })
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr}`))
      else resolve({ firstLineMs, exitMs: performance.now() - started, firstLineCpuMs })
    })
  })
}

async function sample(name: string, argv: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<void> {
  const { firstLineMs, exitMs, firstLineCpuMs } = await timeProcess(argv, extraEnv)
  recorder.record(`${name} (to first line)`, firstLineMs)
  recorder.record(`${name} (to exit)`, exitMs)
  if (!Number.isNaN(firstLineCpuMs)) cpuRecorder.record(`${name} (CPU to first line)`, firstLineCpuMs)
}

const runArgv = (): string[] => [cli, 'run', '--json', '--approve', 'deny', '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'scripted', '--workspace', root, 'say hello']

beforeAll(async () => {
  server = await startScriptedOpenAI(Array.from({ length: 200 }, () => ({ text: 'Hello.' })))
  // The first run creates and migrates the database: a user's later runs open an existing one.
  await timeProcess(runArgv())
})

afterAll(async () => {
  await server.close()
  rmSync(root, { recursive: true, force: true })
  const summaries = recorder.summaries(RUNS)
  const floor = summaries.find((s) => s.name === 'node -e (to first line)')!
  const ratios = summaries.map((s) => `| ${s.name} | ${s.medianMs.toFixed(1)} | ${(s.medianMs / floor.medianMs).toFixed(2)}× |`)
  const cpu = cpuRecorder.summaries(RUNS)
  const cpuFloor = cpu.find((s) => s.name === 'node -e (CPU to first line)')
  const cpuRatios = cpuFloor ? cpu.map((s) => `| ${s.name} | ${s.medianMs.toFixed(0)} | ${(s.medianMs / cpuFloor.medianMs).toFixed(2)}× |`) : []
  console.log(
    `\nCLI start-up (ms, last ${RUNS} runs each, ${process.version}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}):\n${latencyTable(summaries)}\n\n` +
      `| case | median | × node -e first line |\n| --- | ---: | ---: |\n${ratios.join('\n')}\n` +
      (cpuRatios.length > 0 ? `\n| case | CPU median | × node -e |\n| --- | ---: | ---: |\n${cpuRatios.join('\n')}\n` : '')
  )
})

describe('deskclaw start-up', () => {
  bench('node -e (floor)', () => sample('node -e', ['-e', 'console.log("ready")']), options)
  bench('deskclaw --help', () => sample('deskclaw --help', [cli, '--help']), options)
  bench('deskclaw risk CMD', () => sample('deskclaw risk "git status"', [cli, 'risk', 'git status']), options)
  bench('deskclaw run --json', () => sample('deskclaw run', runArgv()), options)
  // The same without bin/code-cache.js (Node 20's stand-in for the compile cache): what it saves, in the same run.
  bench('deskclaw run --json, no code cache', () => sample('deskclaw run, no code cache', runArgv(), { DESKCLAW_CODE_CACHE: '0' }), options)
})
