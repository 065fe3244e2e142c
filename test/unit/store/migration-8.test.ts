/**
 * Migration 8 (message versions, docs/architecture.md): a schema-7 file's conversations become one
 * line each in the question/answer tree, and carry on from their last answer with their whole history.
 */
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { conversationPath } from '../../../src/shared'
import { LATEST_SCHEMA_VERSION } from '../../../src/main/store'
import { migrate, migrations } from '../../../src/main/store/migrations'
import { openStore, tempDir } from './helpers'

/** Two conversations as schema 7 stored them; the second's last question lost its run row in a crash. */
function buildVersion7File(dbPath: string): void {
  const db = new Database(dbPath)
  try {
    db.pragma('journal_mode = WAL')
    migrate(db, migrations.slice(0, 7))
    db.exec(`
      INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('conv_a', 'A', 1000, 5000), ('conv_b', 'B', 1000, 5000);
      INSERT INTO runs (id, conversation_id, status, started_at, ended_at) VALUES
        ('run_a1', 'conv_a', 'completed', 1001, 1100),
        ('run_a2', 'conv_a', 'failed', 2001, 2100),
        ('run_a3', 'conv_a', 'completed', 3001, 3100),
        ('run_b1', 'conv_b', 'completed', 1001, 1100);
      INSERT INTO messages (id, conversation_id, run_id, role, content, created_at, seq) VALUES
        ('msg_a1', 'conv_a', 'run_a1', 'user', 'first', 1000, 1),
        ('msg_a1r', 'conv_a', 'run_a1', 'assistant', 'first answer', 1002, 2),
        ('msg_a2', 'conv_a', 'run_a2', 'user', 'second', 2000, 3),
        ('msg_a3', 'conv_a', 'run_a3', 'user', 'third', 3000, 4),
        ('msg_a3r', 'conv_a', 'run_a3', 'assistant', 'third answer', 3002, 5),
        ('msg_b1', 'conv_b', 'run_b1', 'user', 'other', 1000, 1),
        ('msg_b2', 'conv_b', 'run_b2', 'user', 'crashed', 4000, 2);
      INSERT INTO model_messages (conversation_id, run_id, data) VALUES
        ('conv_a', 'run_a1', '{"role":"user","content":"first"}'),
        ('conv_a', 'run_a1', '{"role":"assistant","content":"first answer"}'),
        ('conv_a', 'run_a2', '{"role":"user","content":"second"}'),
        ('conv_a', 'run_a3', '{"role":"user","content":"third"}'),
        ('conv_a', 'run_a3', '{"role":"assistant","content":"third answer"}'),
        ('conv_b', 'run_b1', '{"role":"user","content":"other"}');
    `)
  } finally {
    db.close()
  }
}

describe('migration 8 (message versions)', () => {
  it('links each question to the run before it and each run to its question', () => {
    const dbPath = path.join(tempDir(), 'v7.db')
    buildVersion7File(dbPath)
    const store = openStore(dbPath)
    expect(LATEST_SCHEMA_VERSION).toBeGreaterThanOrEqual(8)

    const a = store.getConversation('conv_a')!
    expect(a.messages.map((m) => [m.id, m.parentRunId])).toEqual([
      ['msg_a1', null],
      ['msg_a1r', undefined],
      ['msg_a2', 'run_a1'],
      ['msg_a3', 'run_a2'],
      ['msg_a3r', undefined]
    ])
    expect(a.runs.map((r) => [r.id, r.answersMessageId])).toEqual([
      ['run_a1', 'msg_a1'],
      ['run_a2', 'msg_a2'],
      ['run_a3', 'msg_a3']
    ])
    // One line: everything is on the path shown, nothing is hidden, no fork has a second version.
    const shown = conversationPath(a.messages.filter((m) => m.role === 'user'), a.runs)
    expect(shown.turns.map((t) => [t.questionId, t.runId])).toEqual([
      ['msg_a1', 'run_a1'],
      ['msg_a2', 'run_a2'],
      ['msg_a3', 'run_a3']
    ])
    expect(shown.turns.every((t) => t.questionVersions.ids.length === 1 && t.answerVersions?.ids.length === 1)).toBe(true)
    expect(shown.hiddenRunIds.size + shown.hiddenQuestionIds.size).toBe(0)
  })

  it('continues a migrated conversation after its last answer with all of its history', () => {
    const dbPath = path.join(tempDir(), 'v7.db')
    buildVersion7File(dbPath)
    const store = openStore(dbPath)

    const next = store.beginTurn('conv_a', 'run_a4', { kind: 'ask', text: 'fourth' })
    expect(next.question.parentRunId).toBe('run_a3')
    expect(next.history.map((m) => (m as { content: string }).content)).toEqual(['first', 'first answer', 'second', 'third', 'third answer'])

    // A question whose run never got a row (a crash) still has that run as its answer.
    const afterCrash = store.beginTurn('conv_b', 'run_b3', { kind: 'ask', text: 'again' })
    expect(afterCrash.question.parentRunId).toBe('run_b2')
    expect(afterCrash.history.map((m) => (m as { content: string }).content)).toEqual(['other'])

    // Regenerating a migrated answer leaves it out and keeps the rest before it.
    const regenerated = store.beginTurn('conv_a', 'run_a5', { kind: 'regenerate', runId: 'run_a3' })
    expect(regenerated.question).toEqual({ id: 'msg_a3', parentRunId: 'run_a2', text: 'third' })
    expect(regenerated.history.map((m) => (m as { content: string }).content)).toEqual(['first', 'first answer', 'second'])
  })

  it('keeps the migrated messages searchable', () => {
    const dbPath = path.join(tempDir(), 'v7.db')
    buildVersion7File(dbPath)
    const store = openStore(dbPath)
    expect(store.searchConversations('third answer').map((r) => r.conversationId)).toEqual(['conv_a'])
  })
})
