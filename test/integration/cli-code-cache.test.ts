/**
 * The CLI's V8 code cache on Node without `module.enableCompileCache` (bin/code-cache.js;
 * docs/benchmarks.md, "CLI start-up"): a second process uses what the first wrote; a changed file,
 * a damaged or foreign entry is never used (and the module still loads); CLIs starting at once
 * never leave a half-written entry. Each case is a fresh node process, as the CLI is.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'

const codeCache = join(process.cwd(), 'bin', 'code-cache.js')
const hasOwnCache = typeof (createRequire(import.meta.url)('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function'

interface Outcome {
  stats: { hits: number; misses: number; rejected: number; written: number }
  answer: string
}

let root: string
let cacheDir: string
let modulePath: string

/** A node process that installs the cache for `root` and loads the module; what it printed. */
function load(): Promise<Outcome> {
  const script = `
    const stats = require(${JSON.stringify(codeCache)}).installCodeCache({ dir: ${JSON.stringify(cacheDir)}, roots: [${JSON.stringify(root + '/')}] })
    const answer = require(${JSON.stringify(modulePath)}).answer()
    process.on('exit', () => process.stdout.write(JSON.stringify({ stats, answer })))`
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve, reject) =>
    child.on('close', (code) => (code === 0 && stderr === '' ? resolve(JSON.parse(stdout) as Outcome) : reject(new Error(`exit ${code}: ${stderr}`))))
  )
}

const entries = (): string[] => readdirSync(cacheDir).filter((name) => name.endsWith('.bin'))

describe.skipIf(hasOwnCache)('the CLI code cache (Node without a compile cache of its own)', () => {
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'deskclaw-code-cache-'))
    cacheDir = join(root, 'cache')
    modulePath = join(root, 'lib.js')
    // Enough functions that V8 has something to cache; the answer also comes from a module with
    // import(), which Node 20 cannot take from a cache made by another process: compiled as usual.
    const helpers = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x + ${i} }`).join('\n')
    writeFileSync(join(root, 'dynamic.js'), "exports.load = () => import('node:path')\n")
    writeFileSync(modulePath, `${helpers}\nrequire('./dynamic.js').load().then((m) => { process.exitCode = typeof m.join === 'function' ? 0 : 3 })\nexports.answer = () => f41(1) + ':object'\n`)
  })

  it('a second process uses the entry the first wrote, and the module works the same', async () => {
    const first = await load()
    expect(first).toEqual({ stats: { hits: 0, misses: 1, rejected: 0, written: 1 }, answer: '42:object' })
    expect(entries()).toHaveLength(1)
    const second = await load()
    expect(second).toEqual({ stats: { hits: 1, misses: 0, rejected: 0, written: 0 }, answer: '42:object' })
  })

  it('a changed file never meets its old entry', async () => {
    await load()
    writeFileSync(modulePath, readFileSync(modulePath, 'utf8').replace('x + 41', 'x + 40'))
    const changed = await load()
    expect(changed.answer).toBe('41:object')
    expect(changed.stats.misses).toBe(1)
    expect(entries()).toHaveLength(2)
  })

  it('a damaged entry (bytes flipped, cut short, or another file’s) is ignored and written again', async () => {
    await load()
    const [name] = entries()
    const file = join(cacheDir, name!)
    const good = readFileSync(file)
    const flipped = Buffer.from(good)
    flipped[flipped.length - 10]! ^= 0xff
    for (const damaged of [flipped, good.subarray(0, good.length >> 1), Buffer.from('DCC1'), Buffer.alloc(0)]) {
      writeFileSync(file, damaged)
      const outcome = await load()
      expect(outcome).toEqual({ stats: { hits: 0, misses: 1, rejected: 0, written: 1 }, answer: '42:object' })
      expect((await load()).stats.hits).toBe(1)
    }
    // A well-formed entry V8 refuses (made for other source) is rejected, not used.
    const other = join(root, 'other.js')
    writeFileSync(other, 'exports.answer = () => "other"\n')
    const before = modulePath
    modulePath = other
    await load()
    const otherEntry = entries().find((entry) => entry !== name)!
    modulePath = before
    writeFileSync(file, readFileSync(join(cacheDir, otherEntry)))
    const refused = await load()
    expect(refused.answer).toBe('42:object')
    expect(refused.stats).toMatchObject({ hits: 0, rejected: 1, written: 1 })
  })

  it('processes starting at once all load the module and leave whole entries', async () => {
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => load()))
    for (const outcome of outcomes) expect(outcome.answer).toBe('42:object')
    expect(readdirSync(cacheDir).filter((name) => name.endsWith('.tmp'))).toEqual([])
    expect(entries()).toHaveLength(1)
    expect((await load()).stats).toEqual({ hits: 1, misses: 0, rejected: 0, written: 0 })
  })
})
