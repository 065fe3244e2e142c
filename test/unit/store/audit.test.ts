import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { openStore, runEvents, tempDbPath } from './helpers'

function rawDb(dbPath: string): Database.Database {
  return new Database(dbPath)
}

describe('audit_log', () => {
  it('refuses UPDATE and DELETE', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    store.audit({ kind: 'test', actor: 'user', data: { n: 1 } })

    const db = rawDb(dbPath)
    try {
      expect(() => db.prepare(`UPDATE audit_log SET actor = 'someone else'`).run()).toThrow('audit_log is append-only')
      expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow('audit_log is append-only')
      expect(db.prepare('SELECT actor, kind, data FROM audit_log').all()).toEqual([
        { actor: 'user', kind: 'test', data: '{"n":1}' }
      ])
    } finally {
      db.close()
    }
  })

  it('keeps audit rows when their conversation is deleted', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    const { id: conversationId } = store.createConversation()
    const event = runEvents(conversationId, 'run_1')
    store.recordEvent(event('run_started', { prompt: 'hi', model: 'm' }))
    store.recordEvent(event('run_completed', { text: 'ok', stopReason: 'final', iterations: 1, usage: {} }))
    store.audit({ kind: 'note', actor: 'user', conversationId, runId: 'run_1', data: null })

    expect(store.deleteConversation(conversationId)).toBe(true)
    expect(store.getConversation(conversationId)).toBeNull()

    const db = rawDb(dbPath)
    try {
      const rows = db.prepare('SELECT kind, conversation_id FROM audit_log ORDER BY seq').all()
      expect(rows).toEqual([
        { kind: 'run', conversation_id: conversationId },
        { kind: 'note', conversation_id: conversationId }
      ])
      // …while everything else about the conversation is gone.
      for (const table of ['messages', 'runs', 'tool_calls', 'approvals', 'events', 'model_messages']) {
        const { n } = db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }
        expect(n, table).toBe(0)
      }
    } finally {
      db.close()
    }
  })
})
