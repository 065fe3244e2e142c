import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import {
  GENESIS_HASH,
  LATEST_SCHEMA_VERSION,
  NewerSchemaError,
  SqliteConversationStore,
  readAuditLogFile,
  verifyAuditLogFile
} from '../../../src/main/store'
import { auditHash } from '../../../src/main/store/audit-chain'
import { migrate, migrations, type MigrationStep } from '../../../src/main/store/migrations'
import { ASSESSMENT, BINDING_HASH, approvalBody, openStore, readAuditRows, runEvents, tempDbPath, tempDir } from './helpers'

function userVersion(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true })
  try {
    return db.pragma('user_version', { simple: true }) as number
  } finally {
    db.close()
  }
}

describe('migrations', () => {
  it('brings a fresh file to the latest schema version, in WAL mode', () => {
    const dbPath = tempDbPath()
    openStore(dbPath).close()

    expect(LATEST_SCHEMA_VERSION).toBeGreaterThan(0)
    expect(userVersion(dbPath)).toBe(LATEST_SCHEMA_VERSION)
    const db = new Database(dbPath, { readonly: true })
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    db.close()
  })

  it('reopens an up-to-date file without changing it or its data', () => {
    const dbPath = tempDbPath()
    const first = openStore(dbPath)
    const conversation = first.createConversation('Keep me')
    first.close()

    const second = openStore(dbPath)
    expect(userVersion(dbPath)).toBe(LATEST_SCHEMA_VERSION)
    expect(second.listConversations()).toEqual([conversation])
  })

  it('refuses a file written by a newer DeskClaw, with a clear message', () => {
    const dbPath = tempDbPath()
    openStore(dbPath).close()
    const db = new Database(dbPath)
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`)
    db.close()

    expect(() => SqliteConversationStore.open(dbPath)).toThrow(NewerSchemaError)
    expect(() => SqliteConversationStore.open(dbPath)).toThrow(
      `database was written by a newer DeskClaw (schema ${LATEST_SCHEMA_VERSION + 1} > ${LATEST_SCHEMA_VERSION})`
    )
  })

  it('rolls a failing step back whole, version bump included', () => {
    const db = new Database(path.join(tempDir(), 'steps.db'))
    try {
      const steps = ['CREATE TABLE first_step (x)', 'CREATE TABLE half_done (x); SELECT no_such_function()']
      expect(() => migrate(db, steps)).toThrow(/no such function/)
      expect(db.pragma('user_version', { simple: true })).toBe(1)
      const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all()
      expect(tables).toContain('first_step')
      expect(tables).not.toContain('half_done')
    } finally {
      db.close()
    }
  })

  it('runs function steps in the step transaction, and rolls them back whole on a throw', () => {
    const db = new Database(path.join(tempDir(), 'function-steps.db'))
    try {
      const steps: MigrationStep[] = [
        'CREATE TABLE t (x)',
        (stepDb) => stepDb.prepare('INSERT INTO t (x) VALUES (?)').run(42),
        (stepDb) => {
          stepDb.exec('CREATE TABLE half_done (x)')
          stepDb.prepare('INSERT INTO t (x) VALUES (?)').run(43)
          throw new Error('step 3 failed')
        }
      ]
      expect(() => migrate(db, steps)).toThrow('step 3 failed')
      expect(db.pragma('user_version', { simple: true })).toBe(2)
      expect(db.prepare('SELECT x FROM t').pluck().all()).toEqual([42])
      const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all()
      expect(tables).not.toContain('half_done')

      migrate(db, steps.slice(0, 2)) // up to date: nothing runs again
      expect(db.prepare('SELECT x FROM t').pluck().all()).toEqual([42])
    } finally {
      db.close()
    }
  })

  it('opens an in-memory store', () => {
    const store = SqliteConversationStore.open(':memory:')
    expect(store.createConversation().title).toBe('')
    store.close()
  })
})

/** A schema-1 file as DeskClaw 0.1 left it: a finished run with an answered approval and audit rows. */
function buildVersion1File(dbPath: string): void {
  const db = new Database(dbPath)
  try {
    db.pragma('journal_mode = WAL')
    migrate(db, migrations.slice(0, 1))
    db.exec(`
      INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('conv_1', 'Old', 1000, 2000);
      INSERT INTO runs (id, conversation_id, status, started_at, ended_at) VALUES ('run_1', 'conv_1', 'completed', 1000, 2000);
      INSERT INTO tool_calls (id, conversation_id, run_id, tool, args, status, output, started_at)
        VALUES ('call_1', 'conv_1', 'run_1', 'shell', '{"command":"ls"}', 'completed', 'a', 1001);
      INSERT INTO approvals (id, call_id, conversation_id, run_id, tool, args, reason, preview, expires_at,
                             requested_at, answer, resolved_by, resolved_at)
        VALUES ('appr_b', 'call_1', 'conv_1', 'run_1', 'shell', '{"command":"ls"}', 'runs', '{"title":"t","fields":[]}',
                9000, 1002, 'allow_once', 'user', 1003),
               ('appr_a', 'call_2', 'conv_1', 'run_1', 'shell', '{"command":"rm"}', 'deletes', '{"title":"t","fields":[]}',
                9000, 1002, 'deny', 'timeout', 1004);
      INSERT INTO audit_log (at, kind, actor, conversation_id, run_id, data) VALUES
        (1003, 'approval', 'user', 'conv_1', 'run_1', '{"answer":"allow_once"}'),
        (1004, 'approval', 'timeout', 'conv_1', 'run_1', '{"answer":"deny"}'),
        (2000, 'run', 'agent', 'conv_1', 'run_1', '{"status":"completed"}'),
        (2001, 'recovery', 'system', NULL, NULL, '{"runs":0}');
    `)
  } finally {
    db.close()
  }
}

describe('migration 2 (risk assessments, rules, audit chain)', () => {
  it('chains the audit rows of a version-1 file in seq order, so it verifies', () => {
    const dbPath = path.join(tempDir(), 'v1.db')
    buildVersion1File(dbPath)
    expect(userVersion(dbPath)).toBe(1)

    const store = openStore(dbPath)
    expect(userVersion(dbPath)).toBe(LATEST_SCHEMA_VERSION)
    expect(store.verifyAuditChain()).toEqual({ ok: true, rows: 4 })
    const rows = readAuditRows(dbPath)
    expect(rows.map((row) => [row.seq, row.kind, row.data])).toEqual([
      [1, 'approval', '{"answer":"allow_once"}'],
      [2, 'approval', '{"answer":"deny"}'],
      [3, 'run', '{"status":"completed"}'],
      [4, 'recovery', '{"runs":0}']
    ])
    expect(rows[0]?.prev_hash).toBe(GENESIS_HASH)
    expect(rows[0]?.hash).toBe(auditHash(GENESIS_HASH, rows[0]!))
    expect(rows[3]?.hash).toBe(auditHash(rows[2]?.hash ?? '', rows[3]!))

    // New rows continue the migrated chain.
    store.audit({ kind: 'note', actor: 'user', data: null })
    expect(store.verifyAuditChain()).toEqual({ ok: true, rows: 5 })
    expect(readAuditRows(dbPath)[4]?.prev_hash).toBe(rows[3]?.hash)
  })

  it('is not applied by the read-only verifier, which asks for an upgrade instead', () => {
    const dbPath = path.join(tempDir(), 'v1.db')
    buildVersion1File(dbPath)
    expect(() => verifyAuditLogFile(dbPath)).toThrow(/is at schema 1, before the audit log was hash-chained/)
    // Listing works on any schema; there are no hashes to show yet.
    expect(readAuditLogFile(dbPath, 1)).toEqual([
      { seq: 4, at: 2001, kind: 'recovery', actor: 'system', conversationId: null, runId: null, data: { runs: 0 }, hash: null }
    ])
    expect(userVersion(dbPath)).toBe(1)
  })

  it('keeps the append-only triggers after the backfill', () => {
    const dbPath = path.join(tempDir(), 'v1.db')
    buildVersion1File(dbPath)
    openStore(dbPath).close()
    const db = new Database(dbPath)
    try {
      expect(() => db.prepare(`UPDATE audit_log SET actor = 'x'`).run()).toThrow('audit_log is append-only')
      expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow('audit_log is append-only')
      const triggers = db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log' ORDER BY name`)
        .pluck()
        .all()
      expect(triggers).toEqual(['audit_log_chained', 'audit_log_no_delete', 'audit_log_no_update'])
    } finally {
      db.close()
    }
  })

  it('rebuilds approvals with their rows, order and index, and accepts the new answers', () => {
    const dbPath = path.join(tempDir(), 'v1.db')
    buildVersion1File(dbPath)
    openStore(dbPath).close()
    const db = new Database(dbPath)
    try {
      expect(db.prepare('SELECT id, answer, resolved_by, assessment, binding_hash FROM approvals ORDER BY rowid').all()).toEqual([
        { id: 'appr_b', answer: 'allow_once', resolved_by: 'user', assessment: null, binding_hash: null },
        { id: 'appr_a', answer: 'deny', resolved_by: 'timeout', assessment: null, binding_hash: null }
      ])
      const indexes = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'approvals' AND sql IS NOT NULL`).pluck().all()
      expect(indexes).toEqual(expect.arrayContaining(['approvals_unanswered']))
      for (const answer of ['allow_conversation', 'allow_always']) {
        db.prepare('UPDATE approvals SET answer = ? WHERE id = ?').run(answer, 'appr_b')
      }
      expect(() => db.prepare(`UPDATE approvals SET answer = 'allow_forever' WHERE id = 'appr_b'`).run()).toThrow(/CHECK constraint/)
      expect(db.prepare(`SELECT runtime, verdict, findings FROM tool_calls`).get()).toEqual({
        runtime: null,
        verdict: null,
        findings: null
      })
      expect(db.pragma('foreign_key_check')).toEqual([])
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    } finally {
      db.close()
    }
  })

  it('still cascades approvals when their conversation is deleted', () => {
    const dbPath = path.join(tempDir(), 'v1.db')
    buildVersion1File(dbPath)
    const store = openStore(dbPath)
    const event = runEvents('conv_1', 'run_2')
    store.recordEvent(event('run_started', { prompt: 'again', model: 'm' }))
    store.recordEvent(event('approval_requested', approvalBody('appr_new', 'call_9', { command: 'ls -la' }, Date.now() + 60_000)))
    expect(store.pendingApprovals()).toEqual([expect.objectContaining({ assessment: ASSESSMENT, bindingHash: BINDING_HASH })])
    expect(store.deleteConversation('conv_1')).toBe(true)
    const db = new Database(dbPath, { readonly: true })
    try {
      expect(db.prepare('SELECT COUNT(*) FROM approvals').pluck().get()).toBe(0)
    } finally {
      db.close()
    }
  })
})
