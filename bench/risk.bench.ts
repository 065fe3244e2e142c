/**
 * Shell classification speed: 10,000 distinct commands (the test corpus, each varied by a file
 * name so no two are equal) through RiskEngine.assessShell on one core.
 * Run: npx vitest bench --run bench/risk.bench.ts
 * Besides tinybench's per-batch figures, it prints per-command latency (p50/p99/max) and
 * throughput measured over every one of the 10,000 commands (per wall second and per CPU-second of
 * the process), each beside its floor (10,000 commands/s, p99 < 2 ms) and the ratio.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bench, describe } from 'vitest'
import { RiskEngine } from '../src/main/risk'
import { shellCases } from '../test/unit/risk/shell-cases'

const COUNT = 10_000
const workspace = mkdtempSync(join(tmpdir(), 'deskclaw-risk-bench-'))
const engine = await RiskEngine.create({ home: '/home/bench' })

function distinctCommands(): string[] {
  const base = [...new Set(shellCases.map((c) => c.command))]
  const out = new Set<string>()
  for (let i = 0; out.size < COUNT; i++) {
    const command = base[i % base.length]!
    const round = Math.floor(i / base.length)
    out.add(round === 0 ? command : `${command} ; cat notes-${round}.txt`)
  }
  return [...out]
}

const commands = distinctCommands()

/** The floors of issue 21 (docs/benchmarks.md): printed beside every measurement with the ratio. */
const FLOOR_PER_SECOND = 10_000
const FLOOR_P99_MS = 2

function measure(): void {
  const latencies = new Float64Array(commands.length)
  const started = performance.now()
  const cpu0 = process.cpuUsage()
  commands.forEach((command, i) => {
    const t0 = performance.now()
    engine.assessShell(command, { workspace, autonomy: 'supervised' })
    latencies[i] = performance.now() - t0
  })
  const total = performance.now() - started
  const cpu = process.cpuUsage(cpu0)
  latencies.sort()
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!
  const perSecond = Math.round((commands.length / total) * 1000)
  // Per CPU-second of this process too: on a shared machine the wall clock also counts other processes' turns.
  const perCpuSecond = Math.round(commands.length / ((cpu.user + cpu.system) / 1e6))
  const p99 = at(0.99)
  console.log(
    `[risk] ${commands.length} distinct commands in ${total.toFixed(0)} ms: ` +
      `${perSecond} commands/s (floor ${FLOOR_PER_SECOND}, ratio ${(perSecond / FLOOR_PER_SECOND).toFixed(2)}; ` +
      `${perCpuSecond} per CPU-second, ratio ${(perCpuSecond / FLOOR_PER_SECOND).toFixed(2)}); ` +
      `p50 ${at(0.5).toFixed(3)} ms, p99 ${p99.toFixed(3)} ms (floor < ${FLOOR_P99_MS} ms, ratio ${(p99 / FLOOR_P99_MS).toFixed(2)}), ` +
      `max ${latencies[latencies.length - 1]!.toFixed(3)} ms`
  )
}

measure() // warm-up (JIT)
measure()
measure()

describe('risk engine', () => {
  bench(
    `classify ${COUNT} distinct shell commands`,
    () => {
      for (const command of commands) engine.assessShell(command, { workspace, autonomy: 'supervised' })
    },
    { iterations: 5, warmupIterations: 1 }
  )
})
