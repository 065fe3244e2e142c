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
  return withReadOnlyDatabase(path, options, (db) => {
    const version = schemaVersion(db)
    if (version < CHAINED_SCHEMA) {
      throw new AppError(
        'NOT_CONFIGURED',
        `the database at ${path} is at schema ${version}, before the audit log was hash-chained; ` +
          'open it with DeskClaw (the app or `deskclaw run`) once to upgrade it'
      )
    }
    return verifyAuditChain(db)
  })
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

function withReadOnlyDatabase<T>(path: string, options: ReadOnlyOptions, use: (db: Database.Database) => T): T {
  // Checked first: a read-only open of a missing file fails with a less helpful message.
  if (!fs.existsSync(path)) throw new AppError('NOT_FOUND', `no DeskClaw database at ${path}`)
  let db: Database.Database
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, nativeBinding: options.nativeBinding })
  } catch (error) {
    throw new Error(`cannot open the DeskClaw database at ${path}: ${errorMessage(error)}`, { cause: error })
  }
  try {
    db.pragma('busy_timeout = 5000')
    return use(db)
  } finally {
    db.close()
  }
}
