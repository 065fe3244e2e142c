import { execFileSync, spawn } from 'node:child_process'
import { chmodSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  isRefusal,
  listWorkspaceFolder,
  openWorkspaceFile,
  readWorkspaceFile,
  writeWorkspaceFile,
  type SafeOpenOptions,
  type WorkspaceRefusal
} from '../../../src/main/workspace'
import { requireCapability } from '../../helpers/capability'

let base: string
let root: string
let outside: string
let socketServer: Server

const READ = { maxBytes: 1024 * 1024 }

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'deskclaw-safe-open-')))
  root = join(base, 'ws')
  outside = join(base, 'outside')
  mkdirSync(join(root, 'sub'), { recursive: true })
  mkdirSync(outside)
  writeFileSync(join(outside, 'secret.txt'), 'SECRET\n')
  writeFileSync(join(root, 'a.txt'), 'alpha\n')
  writeFileSync(join(root, 'sub', 'c.txt'), 'see\n')
  symlinkSync(outside, join(root, 'out-link'))
  symlinkSync(join(root, 'sub'), join(root, 'in-link'))
  symlinkSync('sub/c.txt', join(root, 'c-link'))
  symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link'))
  symlinkSync('../../outside/secret.txt', join(root, 'sub', 'climb-link'))
  symlinkSync('loop-b', join(root, 'loop-a'))
  symlinkSync('loop-a', join(root, 'loop-b'))
  linkSync(join(outside, 'secret.txt'), join(root, 'hard.txt'))
  execFileSync('mkfifo', [join(root, 'pipe')])
  socketServer = createServer()
  await new Promise<void>((done) => socketServer.listen(join(root, 'sock'), done))
})

afterAll(() => {
  socketServer?.close()
})

const code = (value: unknown) => (isRefusal(value) ? (value as WorkspaceRefusal).code : 'ok')

function tempFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.tmp'))
}

// Both strategies run on Linux: the /proc/self/fd walk, and the lstat + dev/ino comparison macOS and Windows use.
describe.each([
  ['held folder (/proc/self/fd)', {}],
  ['portable (lstat, then same dev+ino)', { portable: true }]
] as Array<[string, SafeOpenOptions]>)('%s', (_name, options) => {
  describe('reading', () => {
    it.each([
      ['a.txt', 'alpha\n', 'a.txt'],
      ['sub/../a.txt', 'alpha\n', 'a.txt'],
      ['in-link/c.txt', 'see\n', 'sub/c.txt'],
      ['c-link', 'see\n', 'sub/c.txt']
    ])('reads %s through its descriptor, links that stay inside followed', async (requested, content, display) => {
      const read = await readWorkspaceFile(root, requested, { ...READ, ...options })
      expect(read).toMatchObject({ ok: true, display })
      expect(!isRefusal(read) && read.data.toString('utf8')).toBe(content)
    })

    it('reads an absolute path inside the workspace', async () => {
      expect(code(await readWorkspaceFile(root, join(root, 'sub', 'c.txt'), { ...READ, ...options }))).toBe('ok')
    })

    it.each([
      ['../outside/secret.txt', 'outside'],
      ['/etc/hostname', 'outside'],
      ['a\0b', 'outside'],
      ['out-link/secret.txt', 'linkOutside'],
      ['secret-link', 'linkOutside'],
      ['sub/climb-link', 'linkOutside'],
      ['loop-a', 'tooManyLinks'],
      ['hard.txt', 'hardLinked'],
      ['pipe', 'special'],
      ['sock', 'special'],
      ['sub', 'isFolder'],
      ['.', 'isFolder'],
      ['missing.txt', 'notFound'],
      ['nowhere/missing.txt', 'notFound'],
      ['a.txt/below', 'notFolder']
    ])('refuses %s (%s)', async (requested, expected) => {
      const started = Date.now()
      expect(code(await readWorkspaceFile(root, requested, { ...READ, ...options }))).toBe(expected)
      expect(Date.now() - started).toBeLessThan(2_000)
    })

    it('names the refused path relative to the workspace', async () => {
      expect(await readWorkspaceFile(root, 'in-link/../out-link/secret.txt', { ...READ, ...options })).toMatchObject({ code: 'linkOutside', path: 'out-link' })
    })

    it('refuses a file larger than the limit without reading it, and stops when the signal says so', async () => {
      writeFileSync(join(root, 'big.txt'), 'x'.repeat(5_000))
      expect(await readWorkspaceFile(root, 'big.txt', { maxBytes: 4_000, ...options })).toMatchObject({ code: 'tooLarge', detail: '5000' })
      const stop = new AbortController()
      stop.abort()
      expect(code(await readWorkspaceFile(root, 'big.txt', { maxBytes: 10_000, signal: stop.signal, ...options }))).toBe('stopped')
    })

    it('leaves the descriptor open for the caller only when the file is fit to read', async () => {
      const opened = await openWorkspaceFile(root, 'a.txt', options)
      if (isRefusal(opened)) throw new Error(opened.code)
      expect(opened.size).toBe(6)
      await opened.handle.close()
    })
  })

  describe('listing', () => {
    it('lists through the opened folder, links inside followed', async () => {
      const listed = await listWorkspaceFolder(root, 'in-link', options)
      expect(listed).toMatchObject({ ok: true, display: 'sub' })
      expect(!isRefusal(listed) && listed.entries.map((entry) => entry.name)).toEqual(expect.arrayContaining(['c.txt', 'climb-link']))
    })

    it.each([
      ['out-link', 'linkOutside'],
      ['a.txt', 'notFolder'],
      ['nope', 'notFound'],
      ['..', 'outside']
    ])('refuses to list %s (%s)', async (requested, expected) => {
      expect(code(await listWorkspaceFolder(root, requested, options))).toBe(expected)
    })
  })

  describe('writing', () => {
    it('creates missing folders one by one and leaves no temp file', async () => {
      const wrote = await writeWorkspaceFile(root, 'new/deeper/w.txt', 'written\n', options)
      expect(wrote).toMatchObject({ ok: true, display: 'new/deeper/w.txt', bytes: 8 })
      expect(readFileSync(join(root, 'new', 'deeper', 'w.txt'), 'utf8')).toBe('written\n')
      expect(tempFiles(root)).toEqual([])
    })

    it('replaces an existing file and keeps its permissions', async () => {
      writeFileSync(join(root, 'mode.sh'), 'old')
      chmodSync(join(root, 'mode.sh'), 0o750)
      expect(code(await writeWorkspaceFile(root, 'mode.sh', 'new', options))).toBe('ok')
      expect(readFileSync(join(root, 'mode.sh'), 'utf8')).toBe('new')
      expect(statSync(join(root, 'mode.sh')).mode & 0o777).toBe(0o750)
    })

    it('writes to the target of a link that stays inside', async () => {
      const name = options.portable ? 'portable' : 'held'
      writeFileSync(join(root, 'sub', `${name}.txt`), 'before')
      symlinkSync(`sub/${name}.txt`, join(root, `${name}-link`))
      expect(await writeWorkspaceFile(root, `${name}-link`, 'after', options)).toMatchObject({ ok: true, display: `sub/${name}.txt` })
      expect(readFileSync(join(root, 'sub', `${name}.txt`), 'utf8')).toBe('after')
    })

    it.each([
      ['../escape.txt', 'outside'],
      ['out-link/new.txt', 'linkOutside'],
      ['out-link/deep/new.txt', 'linkOutside'],
      ['secret-link', 'linkOutside'],
      ['hard.txt', 'hardLinked'],
      ['pipe', 'special'],
      ['sub', 'isFolder'],
      ['a.txt/below.txt', 'notFolder']
    ])('refuses to write %s (%s), outside untouched, no temp file', async (requested, expected) => {
      expect(code(await writeWorkspaceFile(root, requested, 'PWNED', options))).toBe(expected)
      expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('SECRET\n')
      expect(readdirSync(outside)).toEqual(['secret.txt'])
      expect([...tempFiles(root), ...tempFiles(outside)]).toEqual([])
    })
  })
})

/**
 * Renames a folder and a link to the outside folder in and out of `target` until `stop` exists;
 * prints how many times the link was in place.
 */
const FOLDER_RACER = String.raw`
const fs = require('node:fs')
const [target, outsideFolder, stop] = process.argv.slice(1)
const aside = target + '.aside'
const link = target + '.link'
fs.symlinkSync(outsideFolder, link)
process.stdout.write('ready ')
let swaps = 0
for (let round = 1; ; round++) {
  try {
    fs.renameSync(target, aside)
    fs.renameSync(link, target)
    swaps++
    fs.renameSync(target, link)
    fs.renameSync(aside, target)
  } catch {}
  if (round % 64 === 0 && fs.existsSync(stop)) break
}
process.stdout.write(String(swaps))
`

describe.each([
  ['held folder (/proc/self/fd)', {}],
  ['portable (lstat, then same dev+ino)', { portable: true }]
] as Array<[string, SafeOpenOptions]>)('%s, with a process swapping a folder for a link to a secret', (_name, options) => {
  it('never reads the secret in 200 reads', async () => {
    const label = options.portable ? 'portable' : 'held'
    mkdirSync(join(root, `race-${label}`))
    writeFileSync(join(root, `race-${label}`, 'secret.txt'), 'inside\n')
    const stop = join(base, `stop-${label}`)
    const racer = spawn(process.execPath, ['-e', FOLDER_RACER, join(root, `race-${label}`), outside, stop], { stdio: ['ignore', 'pipe', 'inherit'] })
    let printed = ''
    racer.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()))
    const exited = new Promise((done) => racer.on('exit', done))
    await new Promise<void>((ready) => racer.stdout.once('data', () => ready()))
    let leaks = 0
    let readInside = 0
    try {
      for (let i = 0; i < 200; i++) {
        const read = await readWorkspaceFile(root, `race-${label}/secret.txt`, { ...READ, ...options })
        if (!isRefusal(read) && read.data.toString('utf8').includes('SECRET')) leaks++
        if (!isRefusal(read)) readInside++
      }
    } finally {
      writeFileSync(stop, '')
      await exited
    }
    const swaps = Number(printed.replace('ready ', ''))
    console.info(`[race: ${label}] 200 reads, ${swaps} swaps, ${readInside} read the inside file, ${leaks} leaks`)
    expect(swaps).toBeGreaterThan(0)
    expect(leaks).toBe(0)
  })
})

describe('device nodes', () => {
  it('refuses a character device in the workspace without opening it', async (context) => {
    const device = join(root, 'null-device')
    let made = false
    try {
      execFileSync('mknod', [device, 'c', '1', '3'], { stdio: 'ignore' })
      made = true
    } catch {
      made = false
    }
    if (!requireCapability('mknod (root)', made, 'run as root to create a device node in the workspace')) return context.skip()
    expect(code(await readWorkspaceFile(root, 'null-device', READ))).toBe('special')
    expect(code(await writeWorkspaceFile(root, 'null-device', 'x'))).toBe('special')
  })
})
