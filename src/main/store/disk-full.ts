import Database from 'better-sqlite3'
import { AppError } from '../../shared'

/**
 * A write that failed because the disk (or the database's size limit) is full: SQLite says
 * SQLITE_FULL, and a write the OS refused says ENOSPC (docs/cli.md, "When the disk is full").
 */
export function isDiskFull(error: unknown): boolean {
  if (error instanceof Database.SqliteError) return error.code === 'SQLITE_FULL' || error.code.startsWith('SQLITE_FULL_')
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOSPC'
}

/** The error a run fails with when the store cannot write: translated by its key, no stack for users. */
export function diskFullError(path: string): AppError {
  return new AppError('INTERNAL', `The disk holding DeskClaw's data is full (${path}): free some space, then try again.`, {
    key: 'errors.store.diskFull',
    params: { path }
  })
}
