/**
 * Shell classification speed: 10,000 distinct commands (the test corpus, each varied by a file
 * name so no two are equal) through RiskEngine.assessShell on one core.
 * Run: npx vitest bench --run bench/risk.bench.ts
 * Besides tinybench's per-batch figures, it prints per-command latency (p50/p99/max) and
 * throughput measured over every one of the 10,000 commands.
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

function measure(): void {
  const latencies = new Float64Array(commands.length)
  const started = performance.now()
  commands.forEach((command, i) => {
    const t0 = performance.now()
    engine.assessShell(command, { workspace, autonomy: 'supervised' })
    latencies[i] = performance.now() - t0
  })
  const total = performance.now() - started
  latencies.sort()
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!
  console.log(
    `[risk] ${commands.length} distinct commands in ${total.toFixed(0)} ms: ` +
      `${Math.round((commands.length / total) * 1000)} commands/s; ` +
      `p50 ${at(0.5).toFixed(3)} ms, p99 ${at(0.99).toFixed(3)} ms, max ${latencies[latencies.length - 1]!.toFixed(3)} ms`
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
