/**
 * Issue 22, item 4: an untitled conversation is stored unset ('') so every front end names it in
 * its own language; rows older versions titled "New conversation" / "新对话" read as unset too, and
 * the first question still names them.
 */
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { openStore, runEvents, tempDbPath } from './helpers'

describe('untitled conversations', () => {
  it('are stored unset and named by the first question', () => {
    const store = openStore()
    const { id } = store.createConversation()
    expect(store.getConversation(id)!.conversation.title).toBe('')
    expect(store.createConversation('  Named  ').title).toBe('Named')
    store.recordEvent(runEvents(id, 'run_1')('run_started', { prompt: '整理一下周报', model: 'm' }))
    expect(store.getConversation(id)!.conversation.title).toBe('整理一下周报')
  })

  it('read older rows titled in the language they were made in as unset', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    const en = store.createConversation().id
    const zh = store.createConversation().id
    const db = new Database(dbPath)
    db.prepare(`UPDATE conversations SET title = ? WHERE id = ?`).run('New conversation', en)
    db.prepare(`UPDATE conversations SET title = ? WHERE id = ?`).run('新对话', zh)
    db.close()
    expect(store.listConversations().map((c) => c.title)).toEqual(['', ''])
    store.recordEvent(runEvents(zh, 'run_1')('run_started', { prompt: 'Plan the week', model: 'm' }))
    expect(store.getConversation(zh)!.conversation.title).toBe('Plan the week')
  })
})
