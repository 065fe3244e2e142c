/**
 * `deskclaw audit verify` checks the file as well as the chain (docs/cli.md): a page overwritten
 * with garbage fails PRAGMA quick_check (exit 4, its lines printed), and a database on a
 * read-only mount, where SQLite cannot make the `-shm` file a WAL database needs, still verifies.
 */
import { spawn } from 'node:child_process'
import { closeSync, copyFileSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SqliteConversationStore } from '../../src/main/store'
import { requireCapability } from '../helpers/capability'
import { cliPath, requireBuiltCli } from '../helpers/cli'
import { mountTmpfs, type TmpfsMount } from '../helpers/tmpfs'

requireBuiltCli()

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

async function verify(dataDir: string, json = false): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const args = [cliPath, 'audit', 'verify', ...(json ? ['--json'] : []), '--data-dir', dataDir]
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { code, stdout, stderr }
}

/** A data folder whose database spans many pages: 300 audit entries of about 1 KB each. */
function dataDirWithManyPages(): { dataDir: string; dbPath: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'deskclaw-audit-integrity-'))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  const dbPath = join(dataDir, 'deskclaw.db')
  const store = SqliteConversationStore.open(dbPath)
  try {
    for (let n = 0; n < 300; n++) store.audit({ kind: 'note', actor: 'user', data: { n, text: 'x'.repeat(1000) } })
  } finally {
    store.close()
  }
  return { dataDir, dbPath }
}

describe('deskclaw audit verify: the file itself', () => {
  it('a page of garbage in the middle of the file fails quick_check: exit 4, its lines printed', async () => {
    const { dataDir, dbPath } = dataDirWithManyPages()
    const intact = await verify(dataDir)
    expect(intact.code).toBe(0)
    expect(intact.stdout).toContain('database file OK (quick_check)')

    const pageSize = readFileSync(dbPath).readUInt16BE(16)
    const pages = statSync(dbPath).size / pageSize
    expect(pages).toBeGreaterThan(20)
    const fd = openSync(dbPath, 'r+')
    try {
      const garbage = Buffer.alloc(pageSize, 0xa5)
      for (let i = 0; i < pageSize; i += 7) garbage[i] = (i * 31) & 0xff
      writeSync(fd, garbage, 0, pageSize, Math.floor(pages / 2) * pageSize)
    } finally {
      closeSync(fd)
    }

    const damaged = await verify(dataDir)
    console.info(`[audit verify, damaged page]\n${damaged.stdout}`)
    expect(damaged.code).toBe(4)
    expect(damaged.stdout).toMatch(/^database DAMAGED: quick_check found \d+ problem\(s\):\n {2}\S/)
    expect(damaged.stderr).toBe('')

    const json = await verify(dataDir, true)
    expect(json.code).toBe(4)
    const report = JSON.parse(json.stdout) as { ok: boolean; quickCheck: { ok: boolean; lines: string[] } }
    expect(report.ok).toBe(false)
    expect(report.quickCheck.ok).toBe(false)
    expect(report.quickCheck.lines.length).toBeGreaterThan(0)
    expect(report.quickCheck.lines).not.toContain('ok')
  })

  it('a copy on a read-only mount verifies (no -shm file can be made there)', async (context) => {
    const mount = mountTmpfs(16 * 1024 * 1024)
    if (!requireCapability('a tmpfs mount', typeof mount !== 'string', `${String(mount)}; run the tests as root on Linux`)) {
      context.skip()
      return
    }
    const tmpfs = mount as TmpfsMount
    cleanups.push(() => tmpfs.unmount())
    const { dbPath } = dataDirWithManyPages()
    copyFileSync(dbPath, join(tmpfs.dir, 'deskclaw.db'))
    tmpfs.remountReadOnly()
    const before = readFileSync(join(tmpfs.dir, 'deskclaw.db'))

    const result = await verify(tmpfs.dir)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('audit log OK: 300 entries, chain intact; database file OK (quick_check)')
    expect(readFileSync(join(tmpfs.dir, 'deskclaw.db')).equals(before)).toBe(true)
  })
})
