/**
 * Latency samples → median and p95 (vitest bench reports mean / p75 / p99 but not p95).
 * Used by bench/runtime.bench.ts, which records its own samples and prints this table.
 */
export interface LatencySummary {
  name: string
  runs: number
  medianMs: number
  p95Ms: number
  meanMs: number
  maxMs: number
}

/** Nearest-rank percentile of sorted samples (p in 0..100). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!
}

export function summarize(name: string, samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = sorted.length / 2
  const median = sorted.length % 2 === 1 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2
  return {
    name,
    runs: sorted.length,
    medianMs: median,
    p95Ms: percentile(sorted, 95),
    meanMs: sorted.reduce((sum, value) => sum + value, 0) / sorted.length,
    maxMs: sorted.at(-1) ?? NaN
  }
}

/** A Markdown table, ready for docs/benchmarks.md. */
export function latencyTable(summaries: readonly LatencySummary[]): string {
  const ms = (value: number): string => value.toFixed(1)
  return [
    '| case | runs | median | p95 | mean | max |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...summaries.map((s) => `| ${s.name} | ${s.runs} | ${ms(s.medianMs)} | ${ms(s.p95Ms)} | ${ms(s.meanMs)} | ${ms(s.maxMs)} |`)
  ].join('\n')
}

/**
 * Each case beside its floor, medians of the same run, as a Markdown table (rows whose case or
 * floor was not measured are left out); `digits` for the medians.
 */
export function floorRatioTable(summaries: readonly LatencySummary[], floors: ReadonlyArray<readonly [row: string, floor: string]>, digits = 1): string {
  const byName = new Map(summaries.map((summary) => [summary.name, summary]))
  const lines = floors.flatMap(([rowName, floorName]) => {
    const [row, floor] = [byName.get(rowName), byName.get(floorName)]
    if (!row || !floor) return []
    const ratio = (row.medianMs / floor.medianMs).toFixed(2)
    return [`| ${row.name} | ${row.medianMs.toFixed(digits)} | ${floor.name.replace(/^floor: /, '')} | ${floor.medianMs.toFixed(digits)} | ${ratio}× |`]
  })
  return ['| case | median | floor | floor median | ratio |', '| --- | ---: | --- | ---: | ---: |', ...lines].join('\n')
}

/** Collects wall times per case; `time` wraps one run. */
export class LatencyRecorder {
  private readonly samples = new Map<string, number[]>()

  async time<T>(name: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now()
    const result = await run()
    this.record(name, performance.now() - started)
    return result
  }

  /** A sample measured elsewhere (e.g. a child process's time to its first line). */
  record(name: string, ms: number): void {
    const list = this.samples.get(name) ?? []
    list.push(ms)
    this.samples.set(name, list)
  }

  /** The last `runs` samples of each case (earlier ones are tinybench's warm-up). */
  summaries(runs: number): LatencySummary[] {
    return [...this.samples].map(([name, samples]) => summarize(name, samples.slice(-runs)))
  }
}
