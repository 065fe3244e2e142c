/**
 * The search tools over a 100,000-file tree (1,000 folders × 100 files, ~20 lines each, a
 * .gitignore), each beside ripgrep itself doing the same job in the same run (vitest prints both and
 * the ratio; no timing assertions, numbers are for docs/benchmarks.md):
 *  - `grep` listing the files that contain a rare word (output "files") vs `rg -l WORD`;
 *  - `grep` with a regular expression, first 200 matches vs `rg -n REGEX . | head -200`
 *    (rg stops when head closes the pipe; the tool stops at its limit). rg always gets "." as its path:
 *    with no path and stdin not a terminal it would search stdin;
 *  - `glob` "**\/*.ts" vs `rg --files -g '*.ts'`.
 * Without rg (Debian: ripgrep) only the tool's rows run, and the floor is reported missing.
 * Run: npx vitest bench --run --project unit bench/grep.bench.ts
 */
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, bench, describe } from 'vitest'
import { createSearchTools, ToolRegistry, type ToolContext } from '../src/main/tools'

const FOLDERS = 1_000
const FILES_PER_FOLDER = 100
const RARE_EVERY = 997

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'deskclaw-grep-bench-')))
fs.writeFileSync(path.join(root, '.gitignore'), 'ignored/\n')
for (let d = 0; d < FOLDERS; d++) {
  const dir = path.join(root, `pkg${d % 10}`, `mod${d}`)
  fs.mkdirSync(dir, { recursive: true })
  for (let f = 0; f < FILES_PER_FOLDER; f++) {
    const n = d * FILES_PER_FOLDER + f
    const lines = Array.from({ length: 20 }, (_, i) => `export function fn_${n}_${i}(value: number) { return value * ${i} } // line ${i}`)
    if (n % RARE_EVERY === 0) lines[7] = 'const marker = "NEEDLE_RARE"'
    fs.writeFileSync(path.join(dir, `file${f}.${f % 2 === 0 ? 'ts' : 'js'}`), lines.join('\n') + '\n')
  }
}
afterAll(() => fs.rmSync(root, { recursive: true, force: true }), 300_000)

const rg = spawnSync('rg', ['--version']).status === 0
if (!rg) console.warn('[grep bench] rg is not installed (Debian: ripgrep): the floor rows are skipped')
const registry = new ToolRegistry([createSearchTools()])
const context: ToolContext = { workspace: root, conversationId: 'c', runId: 'r', callId: 'k', signal: new AbortController().signal, onOutput: () => undefined }
async function tool(name: string, args: Record<string, unknown>): Promise<string> {
  const checked = registry.checkArgs(name, args)
  if (!checked.ok) throw new Error(checked.error)
  const result = await registry.execute(name, checked.args, context)
  if (result.isError) throw new Error(result.forLlm)
  return result.forLlm
}
const runRg = (args: string[]) => execFileSync('rg', args, { cwd: root, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' })
const options = { iterations: 3, warmupIterations: 1, time: 0, warmupTime: 0, throws: true }

describe(`files containing a rare word, ${FOLDERS * FILES_PER_FOLDER} files`, () => {
  bench('grep tool (output: files)', async () => void (await tool('grep', { pattern: 'NEEDLE_RARE', output: 'files', limit: 5_000 })), options)
  if (rg) bench('rg -l (floor)', () => void runRg(['-l', 'NEEDLE_RARE', '.']), options)
})

describe('a regular expression, first 200 matches', () => {
  bench('grep tool (limit 200)', async () => void (await tool('grep', { pattern: 'fn_\\d+_7\\(value', limit: 200 })), options)
  if (rg) bench('rg -n | head -200 (floor)', () => void spawnSync('sh', ['-c', "rg -n 'fn_\\d+_7\\(value' . | head -200"], { cwd: root }), options)
})

describe('files by name pattern', () => {
  bench('glob tool **/*.ts', async () => void (await tool('glob', { pattern: '**/*.ts', limit: 5_000 })), options)
  if (rg) bench("rg --files -g '*.ts' (floor)", () => void runRg(['--files', '-g', '*.ts', '.']), options)
})
