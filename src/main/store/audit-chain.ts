import { createHash } from 'node:crypto'
import type Database from 'better-sqlite3'
import type { AuditLogRow, Statements } from './statements'

/**
 * The audit log's hash chain (docs/risk.md: every decision goes to the audit log, append-only).
 *
 *   hash = sha256_hex(prev_hash + canonicalJson({ seq, at, kind, actor, conversation_id, run_id, data }))
 *
 * `prev_hash` is the hash of the row before (by seq); the first row's is GENESIS_HASH. `data` enters
 * as the exact text stored in the column (itself JSON), so the hash covers the bytes on disk and
 * verifying needs no re-serialisation of what the row says. Canonical JSON: object keys sorted,
 * no whitespace, strings as JSON.stringify writes them.
 *
 * The triggers stop accidental UPDATE/DELETE; the chain makes deliberate edits (triggers dropped,
 * file edited) visible: a changed row, a removed or reordered row, or a rehashed row all break a
 * link. A chain rewritten from the tampered row to the end is not detectable from the file alone —
 * that needs the last hash kept elsewhere — and neither is cutting the tail together with resetting
 * sqlite_sequence.
 *
 * Frozen with schema 2: changing anything here is a new schema version with its own backfill.
 */
export const GENESIS_HASH = '0'.repeat(64)

/** The hashed columns of one audit row, as stored (`data` is the stored JSON text, not the parsed value). */
export type AuditChainFields = AuditLogRow

export type AuditChainReport =
  | { ok: true; rows: number }
  | {
      ok: false
      rows: number
      /** seq of the first entry at which the chain does not hold. */
      brokenAt: number
      reason: string
    }

/** Keys sorted at every level, no whitespace; `undefined` members are left out, as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value) as string | undefined
    if (text === undefined) throw new TypeError(`cannot canonicalise ${typeof value}`)
    return text
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`
  const record = value as Record<string, unknown>
  const members = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
  return `{${members.join(',')}}`
}

export function auditHash(prevHash: string, row: AuditChainFields): string {
  return createHash('sha256').update(prevHash + auditContent(row), 'utf8').digest('hex')
}

/**
 * canonicalJson of the hashed columns. Rows hold only strings, numbers and nulls, so their keys'
 * sorted order is written out once instead of sorted per row (one row per audited event;
 * docs/benchmarks.md, "Store"); anything else (a BLOB in a hand-edited file) takes canonicalJson.
 */
function auditContent(row: AuditChainFields): string {
  const { seq, at, kind, actor, conversation_id, run_id, data } = row
  if (![seq, at, kind, actor, conversation_id, run_id, data].every(isJsonScalar)) {
    return canonicalJson({ seq, at, kind, actor, conversation_id, run_id, data })
  }
  const json = JSON.stringify
  return `{"actor":${json(actor)},"at":${json(at)},"conversation_id":${json(conversation_id)},"data":${json(data)},"kind":${json(kind)},"run_id":${json(run_id)},"seq":${json(seq)}}`
}

function isJsonScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
}

// Lone UTF-16 surrogates cannot be stored as UTF-8; SQLite would get U+FFFD and the hash computed
// before the insert would not match the row read back. Replacing them first keeps both the same.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD')
}

export function wellFormedOrNull(text: string | null): string | null {
  return text === null ? null : wellFormed(text)
}

interface ChainRow extends AuditChainFields {
  prev_hash: string | null
  hash: string | null
}

/**
 * Walks the whole log in seq order, in one read transaction (a consistent snapshot while another
 * process appends). Reports the first broken link; `rows` is always the number of rows in the log.
 */
export function verifyAuditChain(db: Database.Database): AuditChainReport {
  return db.transaction((): AuditChainReport => {
    const highestEverSeq =
      db.prepare<[], number | null>(`SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'`).pluck().get() ?? 0
    const rows = db.prepare<[], ChainRow>(
      `SELECT seq, at, kind, actor, conversation_id, run_id, data, prev_hash, hash FROM audit_log ORDER BY seq`
    )
    let count = 0
    let previous: { seq: number; hash: string } | null = null
    let broken: { brokenAt: number; reason: string } | null = null
    for (const row of rows.iterate()) {
      count++
      if (broken) continue
      broken = checkLink(row, previous)
      previous = { seq: row.seq, hash: row.hash ?? '' }
    }
    const lastSeq = previous?.seq ?? 0
    if (!broken && highestEverSeq > lastSeq) {
      broken = {
        brokenAt: lastSeq + 1,
        reason:
          lastSeq === 0
            ? `all entries were removed (the log had reached entry ${highestEverSeq})`
            : `entries after ${lastSeq} were removed (the log had reached entry ${highestEverSeq})`
      }
    }
    return broken ? { ok: false, rows: count, ...broken } : { ok: true, rows: count }
  })()
}

function checkLink(
  row: ChainRow,
  previous: { seq: number; hash: string } | null
): { brokenAt: number; reason: string } | null {
  const expectedSeq = (previous?.seq ?? 0) + 1
  if (row.seq !== expectedSeq) {
    const after = previous ? `after entry ${previous.seq}` : 'at the start'
    return row.seq > expectedSeq
      ? {
          brokenAt: expectedSeq,
          reason:
            row.seq === expectedSeq + 1
              ? `entry ${expectedSeq} is missing (the log jumps from ${after} to entry ${row.seq})`
              : `entries ${expectedSeq}-${row.seq - 1} are missing (the log jumps from ${after} to entry ${row.seq})`
        }
      : { brokenAt: row.seq, reason: `entry ${row.seq} is out of sequence ${after}` }
  }
  const expectedPrev = previous?.hash ?? GENESIS_HASH
  if (row.prev_hash !== expectedPrev) {
    return {
      brokenAt: row.seq,
      reason: previous
        ? `its prev_hash does not match the hash of entry ${previous.seq} (an entry was changed, removed or reordered)`
        : 'its prev_hash is not the genesis hash (entries before it were removed or it was changed)'
    }
  }
  if (row.hash === null) return { brokenAt: row.seq, reason: 'it has no hash' }
  if (row.hash !== auditHash(expectedPrev, row)) {
    return { brokenAt: row.seq, reason: 'its contents do not match its hash (the entry was changed)' }
  }
  return null
}

/**
 * Hashes rows written before the chain existed (schema 1), in seq order. Runs inside migration 2's
 * transaction, with the no-update trigger dropped for the duration.
 */
export function backfillAuditChain(db: Database.Database): number {
  const page = db.prepare<[number], AuditChainFields>(
    `SELECT seq, at, kind, actor, conversation_id, run_id, data FROM audit_log WHERE seq > ? ORDER BY seq LIMIT 500`
  )
  const setHash = db.prepare<{ seq: number; prevHash: string; hash: string }>(
    `UPDATE audit_log SET prev_hash = @prevHash, hash = @hash WHERE seq = @seq`
  )
  let prevHash = GENESIS_HASH
  let lastSeq = 0
  let count = 0
  for (;;) {
    // A page at a time: better-sqlite3 cannot write while an iterator is open on the connection.
    const rows = page.all(lastSeq)
    if (rows.length === 0) return count
    for (const row of rows) {
      const hash = auditHash(prevHash, row)
      setHash.run({ seq: row.seq, prevHash, hash })
      prevHash = hash
      lastSeq = row.seq
      count++
    }
  }
}

/** One audit entry as the store writes it (data already JSON text). */
export interface AuditAppend {
  at: number
  kind: string
  actor: string
  conversationId: string | null
  runId: string | null
  data: string
}

/**
 * The single insert path of the audit log. Must run inside a write transaction: the tail is read
 * there, so the app and a `deskclaw` process sharing the file still extend one chain (the write
 * lock is held from the transaction's first write, so nobody can append between read and insert).
 */
export function appendAudit(statements: Statements, entry: AuditAppend): void {
  new AuditAppender(statements).append(entry)
}

/**
 * Appends many entries in one write transaction: the tail is read once (on the first append after
 * `begin`) and then followed in memory, since no other writer can append while the lock is held.
 * Call `begin` at the start of every transaction: between two, another process may have appended.
 */
export class AuditAppender {
  private tail: { lastSeq: number; lastHash: string } | null = null

  constructor(private readonly statements: Statements) {}

  begin(): void {
    this.tail = null
  }

  append(entry: AuditAppend): void {
    const tail = this.tail ?? this.readTail()
    const row: AuditChainFields = {
      seq: tail.lastSeq + 1,
      at: entry.at,
      kind: wellFormed(entry.kind),
      actor: wellFormed(entry.actor),
      conversation_id: wellFormedOrNull(entry.conversationId),
      run_id: wellFormedOrNull(entry.runId),
      data: wellFormed(entry.data)
    }
    const hash = auditHash(tail.lastHash, row)
    this.statements.insertAuditRow.run({ ...row, prev_hash: tail.lastHash, hash })
    this.tail = { lastSeq: row.seq, lastHash: hash }
  }

  private readTail(): { lastSeq: number; lastHash: string } {
    const tail = this.statements.auditTail.get() ?? { lastSeq: 0, lastHash: null }
    return { lastSeq: tail.lastSeq, lastHash: tail.lastHash ?? GENESIS_HASH }
  }
}
