import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { cliPath, requireBuiltCli } from '../helpers/cli'
import { SqliteConversationStore } from '../../src/main/store'
import type { AgentEvent } from '../../src/shared'

const cli = cliPath
const tempDirs: string[] = []

requireBuiltCli()

afterEach(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

async function deskclaw(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [cli, ...args], {
    // No DESKCLAW_HOME from the developer's shell: every test names its data folder.
    env: { ...process.env, DESKCLAW_HOME: join(tmpdir(), 'deskclaw-no-such-home'), ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { code, stdout, stderr }
}

/** A data folder whose deskclaw.db has one finished run (2 audit rows) and 2 notes: 4 entries. */
function dataDirWithAuditLog(): { dataDir: string; dbPath: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'deskclaw-cli-audit-'))
  tempDirs.push(dataDir)
  const dbPath = join(dataDir, 'deskclaw.db')
  const store = SqliteConversationStore.open(dbPath)
  try {
    const { id: conversationId } = store.createConversation()
    const base = { runId: 'run_1', conversationId }
    const events: AgentEvent[] = [
      { ...base, type: 'run_started', at: 1000, prompt: 'list files', model: 'm' },
      { ...base, type: 'tool_call_started', at: 1001, callId: 'call_1', tool: 'shell', args: { command: 'ls' } },
      {
        ...base,
        type: 'tool_call_completed',
        at: 1002,
        callId: 'call_1',
        tool: 'shell',
        status: 'completed',
        isError: false,
        runtime: 'native',
        output: 'a.txt',
        durationMs: 1
      },
      { ...base, type: 'run_completed', at: 1003, text: 'ok', stopReason: 'final', iterations: 1, usage: {} }
    ]
    events.forEach((event) => store.recordEvent(event))
    store.audit({ kind: 'note', actor: 'user', data: { n: 1 } })
    store.audit({ kind: 'note', actor: 'user', data: { n: 2 } })
  } finally {
    store.close()
  }
  return { dataDir, dbPath }
}

function tamper(dbPath: string, sql: string): void {
  const db = new Database(dbPath)
  try {
    db.exec('DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete;')
    db.exec(sql)
  } finally {
    db.close()
  }
}

function fileDigest(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex')
}

describe('deskclaw audit verify', () => {
  it('exits 0 on an intact log, without changing the file', async () => {
    const { dataDir, dbPath } = dataDirWithAuditLog()
    const before = fileDigest(dbPath)
    const result = await deskclaw(['audit', 'verify', '--data-dir', dataDir])
    expect(result).toEqual({ code: 0, stdout: 'audit log OK: 4 entries, chain intact; database file OK (quick_check)\n', stderr: '' })
    expect(fileDigest(dbPath)).toBe(before)
    expect(existsSync(`${dbPath}-wal`) && readFileSync(`${dbPath}-wal`).length > 0).toBe(false)
  })

  it('exits 1 with the entry and the reason after a row is changed', async () => {
    const { dataDir, dbPath } = dataDirWithAuditLog()
    tamper(dbPath, `UPDATE audit_log SET data = '{"n":99}' WHERE seq = 3`)
    const result = await deskclaw(['audit', 'verify', '--data-dir', dataDir])
    expect(result).toEqual({
      code: 1,
      stdout: 'audit log TAMPERED at entry 3: its contents do not match its hash (the entry was changed)\n',
      stderr: ''
    })
  })

  it('exits 1 after a row is removed', async () => {
    const { dataDir, dbPath } = dataDirWithAuditLog()
    tamper(dbPath, 'DELETE FROM audit_log WHERE seq = 2')
    const result = await deskclaw(['audit', 'verify', '--data-dir', dataDir])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe(
      'audit log TAMPERED at entry 2: entry 2 is missing (the log jumps from after entry 1 to entry 3)\n'
    )
  })

  it('--json prints one JSON object', async () => {
    const { dataDir, dbPath } = dataDirWithAuditLog()
    const intact = await deskclaw(['audit', 'verify', '--json', '--data-dir', dataDir])
    expect(intact.code).toBe(0)
    expect(JSON.parse(intact.stdout)).toEqual({ ok: true, rows: 4, quickCheck: { ok: true, lines: ['ok'] }, database: dbPath })

    tamper(dbPath, `UPDATE audit_log SET actor = 'someone else' WHERE seq = 1`)
    const tampered = await deskclaw(['audit', 'verify', '--json', '--data-dir', dataDir])
    expect(tampered.code).toBe(1)
    expect(tampered.stdout.trim().split('\n')).toHaveLength(1)
    expect(JSON.parse(tampered.stdout)).toEqual({
      ok: false,
      rows: 4,
      brokenAt: 1,
      reason: 'its contents do not match its hash (the entry was changed)',
      quickCheck: { ok: true, lines: ['ok'] },
      database: dbPath
    })
  })

  it('finds the database where `run` does (DESKCLAW_HOME) when --data-dir is not given', async () => {
    const { dataDir } = dataDirWithAuditLog()
    const result = await deskclaw(['audit', 'verify'], { DESKCLAW_HOME: dataDir })
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('audit log OK: 4 entries, chain intact; database file OK (quick_check)\n')
  })

  it('exits 2 with one line when there is no database, or the subcommand is wrong', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'deskclaw-cli-audit-empty-'))
    tempDirs.push(empty)
    const missing = await deskclaw(['audit', 'verify', '--data-dir', empty])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe(
      `deskclaw: no DeskClaw database at ${join(empty, 'deskclaw.db')} (pass --data-dir DIR or set DESKCLAW_HOME)\n`
    )
    expect(existsSync(join(empty, 'deskclaw.db'))).toBe(false)

    const wrong = await deskclaw(['audit', 'check'])
    expect(wrong).toMatchObject({ code: 2, stderr: 'deskclaw: unknown audit subcommand "check" (try: verify, list)\n' })
  })
})

describe('deskclaw audit list', () => {
  it('prints the newest entries, oldest first, one line each', async () => {
    const { dataDir } = dataDirWithAuditLog()
    const result = await deskclaw(['audit', 'list', '--limit', '3', '--data-dir', dataDir])
    expect(result.code).toBe(0)
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^#2 {2}1970-01-01T00:00:01\.003Z {2}run +agent +run completed \(final\)$/)
    expect(lines[1]).toMatch(/^#3 .* note +user +\{"n":1\}$/)
    expect(lines[2]).toMatch(/^#4 .* note +user +\{"n":2\}$/)

    const all = await deskclaw(['audit', 'list', '--data-dir', dataDir])
    expect(all.stdout.split('\n')[0]).toMatch(/^#1 .* tool_call +agent +shell ls: completed in 1 ms on native$/)
  })

  it('--json prints one object per entry', async () => {
    const { dataDir } = dataDirWithAuditLog()
    const result = await deskclaw(['audit', 'list', '--json', '--limit', '2', '--data-dir', dataDir])
    expect(result.code).toBe(0)
    const entries = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(entries).toEqual([
      expect.objectContaining({ seq: 3, kind: 'note', actor: 'user', data: { n: 1 }, summary: '{"n":1}' }),
      expect.objectContaining({ seq: 4, kind: 'note', actor: 'user', data: { n: 2 }, summary: '{"n":2}' })
    ])
    // The newest hash, to keep elsewhere as an anchor for the chain.
    expect(entries[1]?.hash).toMatch(/^[0-9a-f]{64}$/)
  })
})
