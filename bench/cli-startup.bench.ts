/**
 * How soon the `deskclaw` command answers (issue 28, item 4), against its floor in the same run:
 * `node -e` printing one line. Cases: `--help`, `risk CMD` (to exit), and `run --json` to its first
 * event (`run_started`) and to exit, against the scripted OpenAI-compatible server on loopback.
 * Every sample is a fresh process, as a user's shell starts it (bin/deskclaw.js, with Node's
 * compile cache where the Node version has one). No timing assertions; numbers are for the report.
 * Run: npx vitest bench --run --project unit bench/cli-startup.bench.ts  (after npm run build)
 * DESKCLAW_BENCH_CLI=path/to/cli.js measures another build.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
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
let server: ScriptedServer

/** Runs a process; resolves with ms to its first stdout line and to its exit. */
function timeProcess(argv: string[]): Promise<{ firstLineMs: number; exitMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let firstLineMs = NaN
    let stderr = ''
    const child = spawn(process.execPath, argv, { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', (chunk: Buffer) => {
      if (Number.isNaN(firstLineMs) && chunk.includes(10)) firstLineMs = performance.now() - started
    })
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr}`))
      else resolve({ firstLineMs, exitMs: performance.now() - started })
    })
  })
}

async function sample(name: string, argv: string[]): Promise<void> {
  const { firstLineMs, exitMs } = await timeProcess(argv)
  recorder.record(`${name} (to first line)`, firstLineMs)
  recorder.record(`${name} (to exit)`, exitMs)
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
  console.log(
    `\nCLI start-up (ms, last ${RUNS} runs each, ${process.version}):\n${latencyTable(summaries)}\n\n` +
      `| case | median | × node -e first line |\n| --- | ---: | ---: |\n${ratios.join('\n')}\n`
  )
})

describe('deskclaw start-up', () => {
  bench('node -e (floor)', () => sample('node -e', ['-e', 'console.log("ready")']), options)
  bench('deskclaw --help', () => sample('deskclaw --help', [cli, '--help']), options)
  bench('deskclaw risk CMD', () => sample('deskclaw risk "git status"', [cli, 'risk', 'git status']), options)
  bench('deskclaw run --json', () => sample('deskclaw run', runArgv()), options)
})
