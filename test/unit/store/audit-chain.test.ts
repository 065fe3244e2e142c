import { createHash } from 'node:crypto'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { GENESIS_HASH, verifyAuditLogFile } from '../../../src/main/store'
import { auditHash, canonicalJson } from '../../../src/main/store/audit-chain'
import { openStore, readAuditRows, runEvents, tempDbPath, type AuditRow } from './helpers'

/** A file with `n` audit rows written through the store (closed again, so tests can edit it raw). */
function fileWithAuditRows(n: number): string {
  const dbPath = tempDbPath()
  const store = openStore(dbPath)
  for (let i = 1; i <= n; i++) store.audit({ kind: 'note', actor: 'user', data: { n: i } })
  store.close()
  return dbPath
}

/** Edits the file as an attacker would: a raw connection, with the named guard triggers dropped. */
function tamper(dbPath: string, dropTriggers: string[], edit: (db: Database.Database) => void): void {
  const db = new Database(dbPath)
  try {
    for (const trigger of dropTriggers) db.exec(`DROP TRIGGER IF EXISTS ${trigger}`)
    edit(db)
  } finally {
    db.close()
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

describe('audit hash chain', () => {
  it('links every row to the one before, starting from the genesis hash', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    expect(store.verifyAuditChain()).toEqual({ ok: true, rows: 0 })

    store.audit({ kind: 'note', actor: 'user', data: { n: 1 } })
    expect(store.verifyAuditChain()).toEqual({ ok: true, rows: 1 })
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1')
    store.recordEvent(event('run_started', { prompt: 'hi', model: 'm' }))
    store.recordEvent(event('run_completed', { text: 'ok', stopReason: 'final', iterations: 1, usage: {} }))
    store.audit({ kind: 'note', actor: 'user', conversationId, runId: 'run_1', data: 'text' })
    expect(store.verifyAuditChain()).toEqual({ ok: true, rows: 3 })

    const rows = readAuditRows(dbPath)
    expect(rows.map((row) => row.seq)).toEqual([1, 2, 3])
    expect(rows[0]?.prev_hash).toBe(GENESIS_HASH)
    expect(GENESIS_HASH).toBe('0'.repeat(64))
    for (let i = 1; i < rows.length; i++) expect(rows[i]?.prev_hash).toBe(rows[i - 1]?.hash)
    for (const row of rows) expect(row.hash).toMatch(/^[0-9a-f]{64}$/)
  })

  it('hashes prev_hash + canonical JSON of the row, with data as its stored text (the format is pinned)', () => {
    const dbPath = fileWithAuditRows(2)
    const [first, second] = readAuditRows(dbPath) as [AuditRow, AuditRow]
    const canonical = `{"actor":"user","at":${first.at},"conversation_id":null,"data":"{\\"n\\":1}","kind":"note","run_id":null,"seq":1}`
    expect(first.hash).toBe(sha256(GENESIS_HASH + canonical))
    expect(second.hash).toBe(auditHash(first.hash ?? '', second))
    expect(canonicalJson({ b: [2, { d: 1, c: undefined }], a: 'x' })).toBe('{"a":"x","b":[2,{"d":1}]}')
  })

  it('hashes every kind of column value exactly as canonical JSON of the row (the fast path writes the same text)', () => {
    const texts = ['', 'note', 'quote " and \\ backslash', 'line\nbreak\ttab', '中文 ✓ 🚀', '\u0000\u001f', '{"n":1}']
    const numbers = [0, -1, 1.5, 1764000000000, Number.MAX_SAFE_INTEGER, NaN]
    const values: unknown[] = [...texts, ...numbers, null, true, Buffer.from('blob')]
    const columns = ['seq', 'at', 'kind', 'actor', 'conversation_id', 'run_id', 'data'] as const
    let checked = 0
    for (const column of columns) {
      for (const value of values) {
        const row = { seq: 7, at: 1764000000000, kind: 'tool_call', actor: 'agent', conversation_id: 'conv_1', run_id: null, data: '{}', [column]: value }
        const expected = sha256('f'.repeat(64) + canonicalJson(row))
        expect(auditHash('f'.repeat(64), row as unknown as AuditRow)).toBe(expected)
        checked++
      }
    }
    expect(checked).toBe(columns.length * values.length)
  })

  it('verifies a file read-only, without migrating or writing it', () => {
    const dbPath = fileWithAuditRows(3)
    expect(verifyAuditLogFile(dbPath)).toEqual({ ok: true, rows: 3 })
    expect(() => verifyAuditLogFile(`${dbPath}.missing`)).toThrow(/no DeskClaw database at/)
  })

  it('detects a changed row (data edited with the update trigger dropped)', () => {
    const dbPath = fileWithAuditRows(5)
    tamper(dbPath, ['audit_log_no_update'], (db) => {
      db.prepare(`UPDATE audit_log SET data = '{"n":300}' WHERE seq = 3`).run()
    })
    expect(verifyAuditLogFile(dbPath)).toEqual({
      ok: false,
      rows: 5,
      brokenAt: 3,
      reason: 'its contents do not match its hash (the entry was changed)'
    })
  })

  it('detects a changed actor, kind or time as well as data', () => {
    for (const column of ["actor = 'admin'", "kind = 'harmless'", 'at = at + 1', "conversation_id = 'conv_x'"]) {
      const dbPath = fileWithAuditRows(3)
      tamper(dbPath, ['audit_log_no_update'], (db) => db.exec(`UPDATE audit_log SET ${column} WHERE seq = 2`))
      expect(verifyAuditLogFile(dbPath), column).toMatchObject({ ok: false, brokenAt: 2 })
    }
  })

  it('detects a removed middle row', () => {
    const dbPath = fileWithAuditRows(5)
    tamper(dbPath, ['audit_log_no_delete'], (db) => db.prepare('DELETE FROM audit_log WHERE seq = 3').run())
    expect(verifyAuditLogFile(dbPath)).toEqual({
      ok: false,
      rows: 4,
      brokenAt: 3,
      reason: 'entry 3 is missing (the log jumps from after entry 2 to entry 4)'
    })
  })

  it('detects a removed row even when the later rows are renumbered to close the gap', () => {
    const dbPath = fileWithAuditRows(5)
    tamper(dbPath, ['audit_log_no_delete', 'audit_log_no_update'], (db) => {
      db.prepare('DELETE FROM audit_log WHERE seq = 3').run()
      db.prepare('UPDATE audit_log SET seq = seq - 1 WHERE seq > 3').run()
    })
    // Entry 3 (formerly 4) still points at the removed row: its prev_hash is not entry 2's hash.
    expect(verifyAuditLogFile(dbPath)).toMatchObject({ ok: false, brokenAt: 3 })
  })

  it('detects a removed tail, and a removed tail followed by new entries', () => {
    const dbPath = fileWithAuditRows(5)
    tamper(dbPath, ['audit_log_no_delete'], (db) => db.prepare('DELETE FROM audit_log WHERE seq >= 4').run())
    expect(verifyAuditLogFile(dbPath)).toEqual({
      ok: false,
      rows: 3,
      brokenAt: 4,
      reason: 'entries after 3 were removed (the log had reached entry 5)'
    })

    const store = openStore(dbPath)
    store.audit({ kind: 'note', actor: 'user', data: { n: 6 } })
    expect(store.verifyAuditChain()).toEqual({
      ok: false,
      rows: 4,
      brokenAt: 4,
      reason: 'entries 4-5 are missing (the log jumps from after entry 3 to entry 6)'
    })
  })

  it('detects a row rehashed after its change (the next link breaks)', () => {
    const dbPath = fileWithAuditRows(5)
    tamper(dbPath, ['audit_log_no_update'], (db) => {
      const row = db.prepare('SELECT * FROM audit_log WHERE seq = 3').get() as AuditRow
      const forged = { ...row, data: '{"n":"forged"}' }
      db.prepare('UPDATE audit_log SET data = ?, hash = ? WHERE seq = 3').run(
        forged.data,
        auditHash(row.prev_hash ?? '', forged)
      )
    })
    expect(verifyAuditLogFile(dbPath)).toEqual({
      ok: false,
      rows: 5,
      brokenAt: 4,
      reason: 'its prev_hash does not match the hash of entry 3 (an entry was changed, removed or reordered)'
    })
  })

  it('detects reordered rows', () => {
    const dbPath = fileWithAuditRows(4)
    tamper(dbPath, ['audit_log_no_update'], (db) => {
      // Swap rows 2 and 3 (every column but seq), so the log reads 1, 3, 2, 4.
      const columns = 'at, kind, actor, conversation_id, run_id, data, prev_hash, hash'
      const row2 = db.prepare(`SELECT ${columns} FROM audit_log WHERE seq = 2`).get() as Record<string, unknown>
      const row3 = db.prepare(`SELECT ${columns} FROM audit_log WHERE seq = 3`).get() as Record<string, unknown>
      const set = db.prepare(
        `UPDATE audit_log SET at = @at, kind = @kind, actor = @actor, conversation_id = @conversation_id,
           run_id = @run_id, data = @data, prev_hash = @prev_hash, hash = @hash WHERE seq = @seq`
      )
      set.run({ ...row3, seq: 2 })
      set.run({ ...row2, seq: 3 })
    })
    expect(verifyAuditLogFile(dbPath)).toMatchObject({ ok: false, rows: 4, brokenAt: 2 })
  })

  it('detects a row inserted without links (the insert trigger dropped)', () => {
    const dbPath = fileWithAuditRows(2)
    tamper(dbPath, ['audit_log_chained'], (db) => {
      db.prepare(`INSERT INTO audit_log (at, kind, actor, data) VALUES (1, 'forged', 'user', 'null')`).run()
    })
    expect(verifyAuditLogFile(dbPath)).toMatchObject({ ok: false, rows: 3, brokenAt: 3 })
  })

  it('refuses rows without links while the triggers are in place', () => {
    const dbPath = fileWithAuditRows(1)
    tamper(dbPath, [], (db) => {
      expect(() =>
        db.prepare(`INSERT INTO audit_log (at, kind, actor, data) VALUES (1, 'forged', 'user', 'null')`).run()
      ).toThrow('audit_log rows must carry prev_hash and hash')
    })
    expect(verifyAuditLogFile(dbPath)).toEqual({ ok: true, rows: 1 })
  })

  it('keeps one valid chain when two connections append to one file alternately', () => {
    const dbPath = tempDbPath()
    const app = openStore(dbPath)
    const cli = openStore(dbPath)
    const { id: conversationId } = app.createConversation()
    for (let i = 0; i < 20; i++) {
      const writer = i % 2 === 0 ? app : cli
      const event = runEvents(conversationId, `run_${i}`)
      writer.recordEvent(event('run_started', { prompt: 'hi', model: 'm' }))
      writer.recordEvent(event('run_completed', { text: 'ok', stopReason: 'final', iterations: 1, usage: {} }))
      ;(i % 3 === 0 ? cli : app).audit({ kind: 'note', actor: 'user', data: { i } })
    }
    expect(app.verifyAuditChain()).toEqual({ ok: true, rows: 40 })
    expect(cli.verifyAuditChain()).toEqual({ ok: true, rows: 40 })
    expect(readAuditRows(dbPath).map((row) => row.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
  })

  it('stores strings with lone surrogates so that they still verify', () => {
    const store = openStore()
    store.audit({ kind: 'note\uD800', actor: 'user\uDC00x', data: { text: 'bad \uD83D' } })
    expect(store.verifyAuditChain()).toEqual({ ok: true, rows: 1 })
    expect(store.recentAudit(1)).toEqual([
      expect.objectContaining({ kind: 'note\uFFFD', actor: 'user\uFFFDx', data: { text: 'bad \uD83D' } })
    ])
  })

  it('lists the newest rows oldest first', () => {
    const store = openStore()
    for (let i = 1; i <= 5; i++) store.audit({ kind: 'note', actor: 'user', data: { i } })
    expect(store.recentAudit(2).map((row) => [row.seq, row.data])).toEqual([
      [4, { i: 4 }],
      [5, { i: 5 }]
    ])
    expect(store.recentAudit(0)).toEqual([])
    expect(store.recentAudit(1)[0]?.hash).toBe(readAuditRows(store.path).at(-1)?.hash)
  })
})
