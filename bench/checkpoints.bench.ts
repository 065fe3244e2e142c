/**
 * What a checkpoint costs on a workspace of 10,000 files and 200 MB (issue 26's goal: ≤ 300 ms
 * after one changed file), against its floor in the same run: plain git doing the same three
 * steps (add --all, write-tree, commit-tree) in an ordinary repository of an identical copy.
 * Run: npx vitest bench --run --project unit bench/checkpoints.bench.ts
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, cpSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, bench, describe } from 'vitest'
import { ShadowRepository } from '../src/main/checkpoints'
import { summarize } from './runtime-latency'

const FILES = 10_000
const TOTAL_BYTES = 200 * 1024 * 1024
const ROUNDS = 7

function makeWorkspace(root: string): void {
  // Mostly small source-like files, and 20 larger ones that carry most of the bytes (as real trees do).
  const large = 20
  const largeBytes = Math.floor((TOTAL_BYTES * 0.9) / large)
  const smallBytes = Math.floor((TOTAL_BYTES * 0.1) / (FILES - large))
  for (let i = 0; i < FILES; i++) {
    const folder = join(root, `pkg${i % 50}`, `mod${i % 7}`)
    if (i < 350) mkdirSync(folder, { recursive: true })
    const size = i < large ? largeBytes : smallBytes
    const line = `// file ${i}: ${'x'.repeat(60)}\n`
    writeFileSync(join(folder, `f${i}.${i < large ? 'bin' : 'ts'}`), line.repeat(Math.ceil(size / line.length)).slice(0, size))
  }
}

function git(cwd: string, args: string[], gitDir?: string): string {
  return execFileSync('git', args, {
    cwd,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x', ...(gitDir ? { GIT_DIR: gitDir } : {}) },
    maxBuffer: 64 * 1024 * 1024
  }).toString().trim()
}

function timed<T>(work: () => T): [T, number] {
  const started = performance.now()
  const value = work()
  return [value, performance.now() - started]
}

async function timedAsync<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now()
  const value = await work()
  return [value, performance.now() - started]
}

describe('checkpoint of a 10,000-file, 200 MB workspace', () => {
  const base = mkdtempSync(join(tmpdir(), 'deskclaw-bench-checkpoints-'))
  const workspace = join(base, 'ws')
  const plain = join(base, 'plain')
  let measured = false
  afterAll(() => rmSync(base, { recursive: true, force: true }))

  bench(
    'DeskClaw checkpoint vs plain git, after one changed file',
    async () => {
      // vitest calls a bench function more than once even with one iteration: measure once.
      if (measured) return
      measured = true
      makeWorkspace(workspace)
      cpSync(workspace, plain, { recursive: true })
      const repo = new ShadowRepository(workspace, join(base, 'data'), { maxFileBytes: 50 * 1024 * 1024 })
      const [first, firstMs] = await timedAsync(() => repo.snapshot('first'))
      git(plain, ['init', '-q'])
      git(plain, ['config', 'core.compression', '1'])
      const [, plainFirstMs] = timed(() => {
        git(plain, ['add', '--all'])
        return git(plain, ['commit-tree', git(plain, ['write-tree']), '-m', 'first'])
      })
      const ours: number[] = []
      const floor: number[] = []
      let parent = first.id
      let plainParent = git(plain, ['commit-tree', git(plain, ['write-tree']), '-m', 'first'])
      for (let round = 0; round < ROUNDS; round++) {
        const name = join('pkg3', 'mod3', `f${3 + 50 * 7 * 2}.ts`)
        writeFileSync(join(workspace, name), `// round ${round}\n`)
        writeFileSync(join(plain, name), `// round ${round}\n`)
        const [next, ms] = await timedAsync(() => repo.snapshot(`round ${round}`, parent))
        parent = next.id
        ours.push(ms)
        const [commit, plainMs] = timed(() => {
          git(plain, ['add', '--all'])
          return git(plain, ['commit-tree', git(plain, ['write-tree']), '-p', plainParent, '-m', `round ${round}`])
        })
        plainParent = commit
        floor.push(plainMs)
      }
      const a = summarize('DeskClaw checkpoint, one file changed', ours)
      const b = summarize('floor: plain git add --all + write-tree + commit-tree', floor)
      console.log(`first checkpoint (whole tree hashed): DeskClaw ${firstMs.toFixed(0)} ms, plain git ${plainFirstMs.toFixed(0)} ms`)
      for (const row of [a, b]) {
        console.log(`${row.name}: median ${row.medianMs.toFixed(1)} ms, p95 ${row.p95Ms.toFixed(1)} ms, max ${row.maxMs.toFixed(1)} ms (${row.runs} runs)`)
      }
      console.log(`ratio (median): ${(a.medianMs / b.medianMs).toFixed(2)}×; goal ≤ 300 ms: ${a.medianMs <= 300 ? 'met' : 'NOT met'}`)
    },
    { iterations: 1, warmupIterations: 0 }
  )
})
