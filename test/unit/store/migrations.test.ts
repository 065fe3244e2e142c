import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { LATEST_SCHEMA_VERSION, NewerSchemaError, SqliteConversationStore } from '../../../src/main/store'
import { migrate } from '../../../src/main/store/migrations'
import { openStore, tempDbPath, tempDir } from './helpers'

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

  it('opens an in-memory store', () => {
    const store = SqliteConversationStore.open(':memory:')
    expect(store.createConversation().title).toBe('New conversation')
    store.close()
  })
})
