/**
 * Schema 11 (issue 28): the event log with one index, no per-row foreign key and no AUTOINCREMENT.
 * A schema-10 file keeps every event in order; every query the store prepares over `events` is
 * served by the index; integrity, which the foreign key gave, is kept by the writer and the
 * delete trigger (docs/architecture.md, "One event stream").
 */
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AgentEvent } from '../../../src/shared'
import { SqliteConversationStore } from '../../../src/main/store'
import { migrate, migrations } from '../../../src/main/store/migrations'
import { approvalBody, openStore, runEvents, tempDbPath, tempDir } from './helpers'

const T0 = 1_700_000_000_000

afterEach(() => vi.restoreAllMocks())

/** One finished run of every kind of event the snapshot reads back, in `conversationId`. */
function recordRun(store: SqliteConversationStore, conversationId: string, runId: string): AgentEvent[] {
  const event = runEvents(conversationId, runId, T0)
  const events: AgentEvent[] = [
    event('run_started', { prompt: 'list', model: 'm' }),
    event('text_delta', { messageId: `${runId}_m1`, delta: 'Look' }),
    event('text_delta', { messageId: `${runId}_m1`, delta: 'ing.' }),
    event('tool_call_started', { callId: 'call_1', tool: 'shell', args: { command: 'ls' } }),
    event('approval_requested', approvalBody(`${runId}_a1`, 'call_1', { command: 'ls' }, T0 + 60_000)),
    event('approval_resolved', { approvalId: `${runId}_a1`, callId: 'call_1', answer: 'allow_once', by: 'user' }),
    event('tool_output_delta', { callId: 'call_1', stream: 'stdout', chunk: 'a\n' }),
    event('tool_call_completed', { callId: 'call_1', tool: 'shell', status: 'completed', isError: false, output: 'a\n', durationMs: 2 }),
    event('run_completed', { text: 'Looking.', stopReason: 'final', iterations: 2, usage: {} })
  ]
  for (const e of events) store.recordEvent(e)
  store.flush()
  return events
}

function eventCount(dbPath: string, where = '1'): number {
  const db = new Database(dbPath, { readonly: true })
  try {
    return db.prepare<[], number>(`SELECT count(*) FROM events WHERE ${where}`).pluck().get()!
  } finally {
    db.close()
  }
}

describe('schema 11: the event log', () => {
  it('keeps a schema-10 file\'s events, their seq and order, and reads them back', () => {
    const dbPath = path.join(tempDir(), 'v10.db')
    const db = new Database(dbPath)
    db.pragma('journal_mode = WAL')
    migrate(db, migrations.slice(0, 10))
    db.exec(`
      INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('conv_a', 'A', 1, 2), ('conv_b', 'B', 1, 2);
      INSERT INTO runs (id, conversation_id, status, started_at) VALUES ('run_a', 'conv_a', 'completed', 1), ('run_b', 'conv_b', 'completed', 1);
      INSERT INTO events (seq, run_id, conversation_id, type, data, at) VALUES
        (3, 'run_a', 'conv_a', 'run_started', '{"type":"run_started","n":1}', 1),
        (7, 'run_b', 'conv_b', 'run_started', '{"type":"run_started","n":2}', 2),
        (9, 'run_a', 'conv_a', 'text_delta', '{"type":"text_delta","n":3}', 3),
        (12, 'run_a', 'conv_a', 'run_completed', '{"type":"run_completed","n":4}', 4);
    `)
    db.close()

    const store = openStore(dbPath)
    expect(store.listEvents('run_a')).toEqual([
      { type: 'run_started', n: 1 },
      { type: 'text_delta', n: 3 },
      { type: 'run_completed', n: 4 }
    ])
    const check = new Database(dbPath, { readonly: true })
    try {
      expect(check.prepare('SELECT seq, run_id FROM events ORDER BY seq').all()).toEqual([
        { seq: 3, run_id: 'run_a' },
        { seq: 7, run_id: 'run_b' },
        { seq: 9, run_id: 'run_a' },
        { seq: 12, run_id: 'run_a' }
      ])
      expect(check.pragma('foreign_key_list(events)')).toEqual([])
      expect(check.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'`).pluck().all()).toEqual([
        'events_by_conversation'
      ])
      expect(check.prepare(`SELECT count(*) FROM sqlite_sequence WHERE name = 'events'`).pluck().get()).toBe(0)
    } finally {
      check.close()
    }
    // New events continue after the highest seq.
    recordRun(store, 'conv_b', 'run_b2')
    expect(eventCount(dbPath, `run_id = 'run_b2' AND seq <= 12`)).toBe(0)
  })

  it('reads events only through the index: every query the store prepares over the log', () => {
    const prepared: string[] = []
    const prepare = Database.prototype.prepare
    vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database.Database, source: string) {
      prepared.push(source)
      return prepare.call(this, source)
    })
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    const conversation = store.createConversation()
    recordRun(store, conversation.id, 'run_1')
    store.getConversation(conversation.id)
    store.listEvents('run_1')
    store.recoverInterrupted()
    vi.restoreAllMocks()

    const reads = [...new Set(prepared)].filter((source) => /\b(FROM|JOIN)\s+events\b/i.test(source))
    // The snapshot's texts (5), the approval answers, a run's events, an answer's text, recovery's rebuild.
    expect(reads.length).toBeGreaterThanOrEqual(9)
    const db = new Database(dbPath, { readonly: true })
    try {
      for (const source of reads) {
        const alias = /\bevents\s+(?!WHERE\b)(\w+)/i.exec(source)?.[1]
        const names = new Set(['events', ...(alias ? [alias] : [])])
        const named = [...new Set([...source.matchAll(/@(\w+)/g)].map((match) => match[1]!))]
        const params = named.length > 0 ? [Object.fromEntries(named.map((name) => [name, 'x']))] : Array.from(source.matchAll(/\?/g), () => 'x')
        const plan = db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${source}`).all(...params).map((row) => row.detail)
        const scans = plan.filter((detail) => {
          const scanned = /^SCAN (\w+)/.exec(detail)?.[1]
          return scanned !== undefined && names.has(scanned) && !/USING (COVERING )?INDEX/.test(detail)
        })
        expect({ source, scans }).toEqual({ source, scans: [] })
        expect(plan.some((detail) => /events_by_conversation/.test(detail))).toBe(true)
      }
    } finally {
      db.close()
    }
  })

  it('keeps no event of a deleted conversation, whether it was written before or arrives after', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    const kept = store.createConversation()
    const gone = store.createConversation()
    recordRun(store, kept.id, 'run_kept')
    const goneEvents = recordRun(store, gone.id, 'run_gone')
    const late = runEvents(gone.id, 'run_late', T0)
    store.recordEvent(late('run_started', { prompt: 'late', model: 'm' }))
    expect(store.deleteConversation(gone.id)).toBe(true)
    // Queued after the delete: the writer finds no conversation and drops them.
    store.recordEvent(late('text_delta', { messageId: 'm', delta: 'x' }))
    store.recordEvent(late('run_completed', { text: 'x', stopReason: 'final', iterations: 1, usage: {} }))
    store.flush()

    expect(goneEvents.length).toBeGreaterThan(0)
    expect(eventCount(dbPath, `conversation_id NOT IN (SELECT id FROM conversations)`)).toBe(0)
    expect(eventCount(dbPath, `conversation_id = '${kept.id}'`)).toBe(9)
    expect(store.listEvents('run_kept')).toHaveLength(9)
    expect(store.listEvents('run_gone')).toEqual([])
  })
})
