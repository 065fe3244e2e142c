/**
 * Where a run's CPU goes (docs/benchmarks.md, "Agent loop"): N runs of one kind — a text answer, or
 * one tool round trip (`file_list`) — through a real DeskclawApp against the scripted
 * OpenAI-compatible server, under `node --cpu-prof`, then the busy time per run by source file (or
 * package), samples of the warm-up dropped. Bundles a small driver with esbuild first (the app is
 * TypeScript), in a temporary folder.
 * Run: node bench/loop-profile.mjs [runs=600]
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'

const RUNS = Number(process.argv[2] ?? 600)
const WARMUP_MS = 3_000
const repo = resolve(import.meta.dirname, '..')
const dir = mkdtempSync(join(tmpdir(), 'deskclaw-loop-profile-'))

const driver = `
import { startScriptedOpenAI } from './test/fixtures/scripted-openai'
import { createTempApp, runPrompt } from './test/helpers/temp-app'
const [mode, runs, warmupMs] = [process.env.MODE, Number(process.env.RUNS), Number(process.env.WARMUP_MS)]
const toolThenText = (request) => (request.body.messages.at(-1).role === 'tool' ? { text: 'Listed.' } : { toolCalls: [{ name: 'file_list', args: {} }] })
void (async () => {
const server = await startScriptedOpenAI(new Array(runs * 2 + 100).fill(mode === 'tool' ? toolThenText : { text: 'Hello there.' }))
const app = createTempApp(server.url)
const once = async () => { await runPrompt(app, 'list'); app.events.length = 0; server.requests.length = 0 }
while (performance.now() < warmupMs) await once()
const start = process.cpuUsage()
for (let i = 0; i < runs; i++) await once()
const used = process.cpuUsage(start)
console.log(mode + ': CPU per run of the profiled process ' + ((used.user + used.system) / 1000 / runs).toFixed(2) + ' ms')
await app.dispose()
await server.close()
})()
`
const bundle = join(dir, 'driver.cjs')
await build({
  stdin: { contents: driver, resolveDir: repo, loader: 'ts' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  packages: 'external',
  outfile: bundle,
  logLevel: 'warning',
  // The test helpers clean up with vitest's afterEach; the driver disposes of its app itself.
  plugins: [
    {
      name: 'no-vitest',
      setup(esbuild) {
        esbuild.onResolve({ filter: /^vitest$/ }, () => ({ path: 'vitest', namespace: 'stub' }))
        esbuild.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export const afterEach = () => {}', loader: 'js' }))
      }
    }
  ]
})

/** Busy microseconds per source file of the bundle (esbuild's `// path` markers) or per package, after the warm-up. */
function summarise(profile) {
  const lines = readFileSync(bundle, 'utf8').split('\n')
  const markers = []
  lines.forEach((line, i) => {
    const found = /^\/\/ ((?:src|test)\/\S+)$/.exec(line)
    if (found) markers.push([i, found[1]])
  })
  const fileAt = (line) => markers.findLast(([at]) => at <= line)?.[1] ?? 'driver'
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const where = ({ url, lineNumber, functionName }) => {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
    if (pkg) return pkg[1]
    if (url.endsWith('driver.cjs')) return fileAt(lineNumber)
    return url ? `node:${url.replace(/^.*\//, '')}` : `(${functionName})`
  }
  const busy = new Map()
  let t = 0
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i]
    const frame = nodes.get(id).callFrame
    if (t >= WARMUP_MS * 1000 && frame.functionName !== '(idle)') busy.set(where(frame), (busy.get(where(frame)) ?? 0) + profile.timeDeltas[i])
  })
  return busy
}

console.log(`loop profile: ${RUNS} runs of each kind, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
for (const mode of ['tool', 'text']) {
  const profiles = join(dir, mode)
  const result = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profiles}`, bundle], {
    cwd: repo,
    // The bundle lives in a temporary folder: its packages are found through NODE_PATH.
    env: { ...process.env, NODE_PATH: join(repo, 'node_modules'), MODE: mode, RUNS: String(RUNS), WARMUP_MS: String(WARMUP_MS) },
    encoding: 'utf8'
  })
  if (result.status !== 0) throw new Error(result.stderr)
  process.stdout.write(result.stdout)
  const busy = summarise(JSON.parse(readFileSync(join(profiles, readdirSync(profiles)[0]), 'utf8')))
  const total = [...busy.values()].reduce((a, b) => a + b, 0)
  console.log(`  busy per run in the profile (sampled): ${(total / 1000 / RUNS).toFixed(2)} ms`)
  for (const [key, us] of [...busy].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${(us / 1000 / RUNS).toFixed(3).padStart(7)}  ${key}`)
}
rmSync(dir, { recursive: true, force: true })
