import fs from 'node:fs'
import Database from 'better-sqlite3'
import { AppError, errorMessage } from '../../shared'
import { verifyAuditChain, type AuditChainReport } from './audit-chain'
import { schemaVersion } from './migrations'
import { toAuditRecord } from './rows'
import type { AuditListRow } from './statements'
import type { AuditRecord } from './types'

/** The database file inside a data folder (what the app opens). */
export const DATABASE_FILE_NAME = 'deskclaw.db'

/** The first schema whose audit rows carry prev_hash/hash. */
const CHAINED_SCHEMA = 2

export interface ReadOnlyOptions {
  /** Path to a better_sqlite3.node built for this runtime. */
  nativeBinding?: string
}

/**
 * Verifies the audit chain of a database file without changing it: opened read-only, never
 * migrated. A file at schema 1 has no chain yet (opening it with DeskClaw once migrates it).
 */
export function verifyAuditLogFile(path: string, options: ReadOnlyOptions = {}): AuditChainReport {
  return withReadOnlyDatabase(path, options, (db) => verifyAuditLogOf(db, path))
}

function verifyAuditLogOf(db: Database.Database, path: string): AuditChainReport {
  const version = schemaVersion(db)
  if (version < CHAINED_SCHEMA) {
    throw new AppError(
      'NOT_CONFIGURED',
      `the database at ${path} is at schema ${version}, before the audit log was hash-chained; ` +
        'open it with DeskClaw (the app or `deskclaw run`) once to upgrade it'
    )
  }
  return verifyAuditChain(db)
}

/** What `PRAGMA quick_check` said: `ok`, or the problems it found (its own lines). */
export interface IntegrityReport {
  ok: boolean
  lines: string[]
}

/** The audit chain's report, or why the log could not be read at all (a damaged file). */
export type ChainOutcome = AuditChainReport | { ok: false; unreadable: string }

export interface DatabaseVerifyReport {
  /** Both the file and the chain are sound. */
  ok: boolean
  integrity: IntegrityReport
  chain: ChainOutcome
  /**
   * Read from a copy in memory: the file is on read-only media without its `-shm` file, which
   * SQLite cannot open in place. Entries only in a `-wal` file beside it are then not seen.
   */
  readFromCopy: boolean
}

/**
 * `deskclaw audit verify` (docs/cli.md): the file's own integrity (`PRAGMA quick_check`, which a
 * torn or overwritten page fails) and the audit hash chain, without changing the file.
 */
export function verifyDatabaseFile(path: string, options: ReadOnlyOptions = {}): DatabaseVerifyReport {
  return withReadOnlyDatabase(path, options, (db, readFromCopy) => {
    const integrity = quickCheck(db)
    let chain: ChainOutcome
    try {
      chain = verifyAuditLogOf(db, path)
    } catch (error) {
      if (error instanceof AppError) throw error // a schema-1 file: the user's to upgrade
      chain = { ok: false, unreadable: errorMessage(error) }
    }
    return { ok: integrity.ok && chain.ok, integrity, chain, readFromCopy }
  })
}

function quickCheck(db: Database.Database): IntegrityReport {
  try {
    const lines = db.pragma('quick_check', { simple: false }) as Array<{ quick_check: string }>
    const texts = lines.map((line) => String(line.quick_check))
    return { ok: texts.length === 1 && texts[0] === 'ok', lines: texts }
  } catch (error) {
    // A page so damaged that the check itself stops is a failed check too.
    return { ok: false, lines: [errorMessage(error)] }
  }
}

/** The newest `limit` audit rows of a database file, oldest first; read-only, any schema. */
export function readAuditLogFile(path: string, limit: number, options: ReadOnlyOptions = {}): AuditRecord[] {
  return withReadOnlyDatabase(path, options, (db) => {
    const hash = schemaVersion(db) >= CHAINED_SCHEMA ? 'hash' : 'NULL AS hash'
    return db
      .prepare<[number], AuditListRow>(
        `SELECT * FROM (
           SELECT seq, at, kind, actor, conversation_id, run_id, data, ${hash} FROM audit_log ORDER BY seq DESC LIMIT ?
         ) ORDER BY seq`
      )
      .all(Math.max(0, Math.floor(limit)))
      .map(toAuditRecord)
  })
}

function withReadOnlyDatabase<T>(
  path: string,
  options: ReadOnlyOptions,
  use: (db: Database.Database, readFromCopy: boolean) => T
): T {
  // Checked first: a read-only open of a missing file fails with a less helpful message.
  if (!fs.existsSync(path)) throw new AppError('NOT_FOUND', `no DeskClaw database at ${path}`)
  let db: Database.Database
  let readFromCopy = false
  try {
    db = openInPlace(path, options)
  } catch (error) {
    if (!cannotOpenInPlace(error)) {
      throw new Error(`cannot open the DeskClaw database at ${path}: ${errorMessage(error)}`, { cause: error })
    }
    try {
      db = openCopy(path, options)
      readFromCopy = true
    } catch (copyError) {
      throw new Error(`cannot open the DeskClaw database at ${path}: ${errorMessage(copyError)}`, { cause: copyError })
    }
  }
  try {
    db.pragma('busy_timeout = 5000')
    return use(db, readFromCopy)
  } finally {
    db.close()
  }
}

/** Read-only, in place; the first read is where a WAL file without its `-shm` fails. */
function openInPlace(path: string, options: ReadOnlyOptions): Database.Database {
  const db = new Database(path, { readonly: true, fileMustExist: true, nativeBinding: options.nativeBinding })
  try {
    db.pragma('schema_version')
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/** SQLite could not open the file where it is: read-only media (no `-shm` can be made beside a WAL file). */
function cannotOpenInPlace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_READONLY'))
}

/**
 * The file's bytes as an in-memory database (this build of SQLite takes no `?immutable=1` URI).
 * Header bytes 18-19 say WAL; an in-memory copy cannot use a WAL, so the copy says rollback journal.
 */
function openCopy(path: string, options: ReadOnlyOptions): Database.Database {
  const bytes = fs.readFileSync(path)
  if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) {
    bytes[18] = 1
    bytes[19] = 1
  }
  const db = new Database(bytes, { readonly: true, nativeBinding: options.nativeBinding })
  try {
    db.pragma('schema_version')
    return db
  } catch (error) {
    db.close()
    throw error
  }
}
