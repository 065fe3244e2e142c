import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFileTools, ToolRegistry, type ToolContext, type ToolOutput } from '../../../src/main/tools'
import { requireCapability } from '../../helpers/capability'

/*
 * "Decide on what will run, at the moment it runs" (docs/risk.md, "At run time: file tools"): a
 * separate process swaps workspace files and folders for links to a secret while the file tools
 * run, and not one call may read the secret, write outside, or leave a temp file behind.
 */

const CALLS = 200
const SECRET = 'SECRET-id_rsa-contents'
const INSIDE = 'inside-content'

const registry = new ToolRegistry([createFileTools()])
let base: string
let workspace: string
let outside: string

function context(signal = new AbortController().signal): ToolContext {
  return { workspace, conversationId: 'conv_race', runId: 'run_race', callId: 'call_race', signal, onOutput: () => undefined }
}

async function call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutput> {
  const checked = registry.checkArgs(tool, args)
  if (!checked.ok) throw new Error(checked.error)
  return registry.execute(tool, checked.args, context(signal))
}

function tempFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.tmp'))
}

/** What outside holds, so a write that landed there shows up as a difference. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(dir, name)
    try {
      files[name] = readFileSync(path, 'utf8')
    } catch {
      files[name] = '(folder)'
    }
  }
  return files
}

/**
 * A node process that swaps `target` (a file, or a folder holding `file.txt`) between the real
 * thing and a link to `outsideTarget`, as fast as it can, until the stop file appears; it prints
 * how many swaps it made. Links and files are swapped in by rename, so each state is complete.
 */
const RACER = String.raw`
const fs = require('node:fs')
const [kind, target, outsideTarget, stopFile, inside] = process.argv.slice(1)
const stageLink = target + '.racer-link'
const stageReal = target + '.racer-real'
process.stdout.write('ready ')
let swaps = 0
const isLink = (path) => { try { return fs.lstatSync(path).isSymbolicLink() } catch { return false } }
const exists = (path) => { try { fs.lstatSync(path); return true } catch { return false } }
for (let round = 1; ; round++) {
  try {
    if (kind === 'file') {
      // Renames only (writing a file each time is slow on ext4): real file aside, link in, link out, file back.
      if (!isLink(stageLink)) {
        fs.rmSync(stageLink, { force: true })
        fs.symlinkSync(outsideTarget, stageLink)
      }
      fs.renameSync(target, stageReal)
      fs.renameSync(stageLink, target)
      swaps++
      fs.renameSync(target, stageLink)
      fs.renameSync(stageReal, target)
      swaps++
    } else {
      // A folder cannot be renamed over a link: move it aside, put the link in its place, and back.
      fs.renameSync(target, stageReal)
      fs.symlinkSync(outsideTarget, target)
      swaps++
      fs.unlinkSync(target)
      fs.renameSync(stageReal, target)
      swaps++
    }
  } catch {
    // A file_write that replaced the file mid-swap: put a real file back in place.
    if (kind === 'file' && !exists(target)) {
      try {
        if (exists(stageReal)) fs.renameSync(stageReal, target)
        else fs.writeFileSync(target, inside)
      } catch {}
    }
    // A file_write that found the folder missing mid-swap made a new one: clear it, put the real one back.
    if (kind === 'folder' && fs.existsSync(stageReal)) {
      try {
        fs.rmSync(target, { recursive: true, force: true })
        fs.renameSync(stageReal, target)
      } catch {}
    }
  }
  if (round % 64 === 0 && fs.existsSync(stopFile)) break
}
process.stdout.write(String(swaps))
`

interface Racer {
  stop(): Promise<number>
}

const running = new Set<ChildProcess>()

/** Resolves once the racer runs, so every call below meets it. */
async function startRacer(kind: 'file' | 'folder', target: string, outsideTarget: string): Promise<Racer> {
  const stopFile = join(base, `stop-${Date.now()}`)
  const child: ChildProcess = spawn(process.execPath, ['-e', RACER, kind, target, outsideTarget, stopFile, INSIDE], { stdio: ['ignore', 'pipe', 'inherit'] })
  let printed = ''
  child.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()))
  running.add(child)
  const exited = new Promise<void>((done) => child.on('exit', () => done()))
  exited.finally(() => running.delete(child))
  await new Promise<void>((ready) => child.stdout!.once('data', () => ready()))
  return {
    async stop() {
      writeFileSync(stopFile, '')
      await exited
      return Number(printed.replace('ready ', ''))
    }
  }
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'deskclaw-races-')))
  workspace = join(base, 'ws')
  outside = join(base, 'home-ssh')
  mkdirSync(workspace)
  mkdirSync(outside)
  writeFileSync(join(outside, 'id_rsa'), SECRET)
  writeFileSync(join(outside, 'file.txt'), SECRET)
})

afterEach(() => {
  // A racer left by a failed test must not outlive it.
  for (const child of running) child.kill('SIGKILL')
  rmSync(base, { recursive: true, force: true })
})

describe('file tools against a process swapping files for links to a secret', () => {
  it(`a file swapped with a link: ${CALLS} file_reads never return the secret, ${CALLS} file_writes never land outside`, async () => {
    const target = join(workspace, 'notes.txt')
    writeFileSync(target, INSIDE)
    const before = snapshot(outside)
    const racer = await startRacer('file', target, join(outside, 'id_rsa'))
    const outcomes = new Tally()
    let leaks = 0
    for (let i = 0; i < CALLS; i++) {
      const read = await call('file_read', { path: 'notes.txt' })
      if (read.forLlm.includes(SECRET)) leaks++
      outcomes.add('file_read', read)
      outcomes.add('file_write', await call('file_write', { path: 'notes.txt', content: `PWNED ${i}` }))
    }
    const swaps = await racer.stop()
    console.info(`[race: file] ${swaps} swaps, ${leaks} leaks; ${outcomes}`)
    expect(swaps).toBeGreaterThan(0)
    expect.soft(leaks).toBe(0)
    expect.soft(snapshot(outside)).toEqual(before)
    expect.soft([...tempFiles(workspace), ...tempFiles(outside)]).toEqual([])
    // The swaps met the calls: some were refused because of a link that was there at that moment.
    expect(outcomes.refusedByLinks()).toBeGreaterThan(0)
  })

  it(`a folder swapped with a link: ${CALLS} file_reads never return the secret, ${CALLS} file_writes and file_edits never land outside`, async () => {
    const folder = join(workspace, 'docs')
    mkdirSync(folder)
    writeFileSync(join(folder, 'file.txt'), INSIDE)
    const before = snapshot(outside)
    const racer = await startRacer('folder', folder, outside)
    const outcomes = new Tally()
    let leaks = 0
    let listLeaks = 0
    for (let i = 0; i < CALLS; i++) {
      const read = await call('file_read', { path: 'docs/file.txt' })
      if (read.forLlm.includes(SECRET)) leaks++
      outcomes.add('file_read', read)
      outcomes.add('file_write', await call('file_write', { path: 'docs/file.txt', content: `PWNED ${i}` }))
      outcomes.add('file_write new', await call('file_write', { path: 'docs/new.txt', content: `PWNED ${i}` }))
      outcomes.add('file_edit', await call('file_edit', { path: 'docs/file.txt', old: 'PWNED', new: 'EDITED' }))
      const listed = await call('file_list', { path: 'docs' })
      if (listed.forLlm.includes('id_rsa')) listLeaks++
      outcomes.add('file_list', listed)
    }
    const swaps = await racer.stop()
    console.info(`[race: folder] ${swaps} swaps, ${leaks} read leaks, ${listLeaks} list leaks; ${outcomes}`)
    expect(swaps).toBeGreaterThan(0)
    expect.soft(leaks).toBe(0)
    expect.soft(listLeaks).toBe(0)
    expect.soft(snapshot(outside)).toEqual(before)
    expect.soft([...tempFiles(workspace), ...tempFiles(outside)]).toEqual([])
    expect(outcomes.refusedByLinks()).toBeGreaterThan(0)
  })
})

/** How each tool's calls ended (by result line), for the log and to prove the racer met the calls. */
class Tally {
  private readonly counts = new Map<string, number>()

  add(tool: string, output: ToolOutput): void {
    const key = `${tool} ${output.isError ? (output.display?.key ?? 'error') : 'ok'}`
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1)
  }

  refusedByLinks(): number {
    return [...this.counts].filter(([key]) => /result\.(linkOutside|changed)$/.test(key)).reduce((sum, [, count]) => sum + count, 0)
  }

  toString(): string {
    return [...this.counts].sort().map(([key, count]) => `${key}: ${count}`).join(', ')
  }
}

describe('files the tools do not open', () => {
  it('a file hard-linked to a secret outside is refused for read, write and edit, and the secret is untouched', async () => {
    linkSync(join(outside, 'id_rsa'), join(workspace, 'innocent.txt'))
    for (const [tool, args] of [
      ['file_read', { path: 'innocent.txt' }],
      ['file_write', { path: 'innocent.txt', content: 'PWNED' }],
      ['file_edit', { path: 'innocent.txt', old: 'SECRET', new: 'PWNED' }]
    ] as const) {
      const result = await call(tool, args)
      expect(result).toMatchObject({ isError: true, display: { key: 'result.hardLinked', params: { path: 'innocent.txt' } } })
      expect(result.forLlm).toMatch(/has other hard links; DeskClaw does not read or write such files/)
      expect(result.forLlm).not.toContain(SECRET)
    }
    expect(readFileSync(join(outside, 'id_rsa'), 'utf8')).toBe(SECRET)
    expect(tempFiles(workspace)).toEqual([])
  })

  it('a FIFO is refused at once (no reader hangs), and so is a socket', async () => {
    execFileSync('mkfifo', [join(workspace, 'pipe')])
    const started = Date.now()
    const read = await call('file_read', { path: 'pipe' })
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(read).toMatchObject({ isError: true, display: { key: 'result.special' } })
    expect(await call('file_edit', { path: 'pipe', old: 'a', new: 'b' })).toMatchObject({ display: { key: 'result.special' } })

    const server = createServer()
    await new Promise<void>((done) => server.listen(join(workspace, 'sock'), done))
    try {
      expect(await call('file_read', { path: 'sock' })).toMatchObject({ isError: true, display: { key: 'result.special' } })
      expect(await call('file_write', { path: 'sock', content: 'x' })).toMatchObject({ isError: true, display: { key: 'result.special' } })
    } finally {
      server.close()
    }
  })

  it('file_read honours Stop', async () => {
    writeFileSync(join(workspace, 'a.txt'), 'a\n')
    const stop = new AbortController()
    stop.abort()
    expect(await call('file_read', { path: 'a.txt' }, stop.signal)).toMatchObject({ isError: true, display: { key: 'result.stopped' } })
  })
})

describe('a full disk', () => {
  let mounted: string | null = null

  afterAll(() => {
    if (mounted) spawnSync('umount', [mounted])
    if (mounted) rmSync(join(mounted, '..'), { recursive: true, force: true })
  })

  it('a file_write larger than the free space is a clear error, the old file stays, no temp file is left', async (context) => {
    const disk = join(realpathSync(mkdtempSync(join(tmpdir(), 'deskclaw-full-'))), 'disk')
    mkdirSync(disk)
    const isRoot = process.getuid?.() === 0
    const mount = isRoot ? spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', disk], { encoding: 'utf8' }) : null
    if (mount?.status === 0) mounted = disk
    if (!requireCapability('a 1 MiB tmpfs', mounted !== null, isRoot ? `mount failed: ${mount?.stderr.trim()}` : 'run as root to mount a tmpfs')) return context.skip()
    workspace = disk
    writeFileSync(join(disk, 'keep.txt'), 'the old content')

    const result = await call('file_write', { path: 'keep.txt', content: 'x'.repeat(2 * 1024 * 1024) })
    expect(result).toMatchObject({ isError: true, display: { key: 'result.noSpace', params: { path: 'keep.txt' } } })
    expect(result.forLlm).toMatch(/Not enough space to write keep\.txt \(ENOSPC\)/)
    expect(readFileSync(join(disk, 'keep.txt'), 'utf8')).toBe('the old content')
    expect(readdirSync(disk)).toEqual(['keep.txt'])
    // The space the temp file took is free again: a small write still fits.
    expect(await call('file_write', { path: 'small.txt', content: 'fits' })).toMatchObject({ isError: false })
    expect(existsSync(join(disk, 'small.txt'))).toBe(true)
  })
})
