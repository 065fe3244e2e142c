import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { AppError } from '../../../src/shared'
import { openStore, runEvents, tempDbPath } from './helpers'

describe('conversations', () => {
  it('creates, lists by latest activity, renames and deletes', async () => {
    const store = openStore()
    const older = store.createConversation('Older')
    await new Promise((resolve) => setTimeout(resolve, 5))
    const newer = store.createConversation('  Newer  ')
    expect(newer.title).toBe('Newer')
    expect(store.listConversations().map((c) => c.id)).toEqual([newer.id, older.id])

    // Activity moves a conversation to the top; a rename does not.
    store.recordEvent(runEvents(older.id, 'run_1', Date.now() + 1000)('run_started', { prompt: 'x', model: 'm' }))
    expect(store.listConversations().map((c) => c.id)).toEqual([older.id, newer.id])
    const renamed = store.renameConversation(newer.id, 'Renamed')
    expect(renamed).toEqual({ ...newer, title: 'Renamed' })
    expect(store.listConversations().map((c) => c.id)).toEqual([older.id, newer.id])

    expect(store.renameConversation('conv_missing', 'x')).toBeNull()
    expect(() => store.renameConversation(newer.id, '   ')).toThrow(AppError)
    expect(store.deleteConversation(newer.id)).toBe(true)
    expect(store.deleteConversation(newer.id)).toBe(false)
    expect(store.getConversation(newer.id)).toBeNull()
  })

  it('orders messages as they were added', () => {
    const store = openStore()
    const { id } = store.createConversation()
    const first = store.addUserMessage(id, 'run_1', 'first')
    store.recordEvent(runEvents(id, 'run_1')('text_delta', { messageId: 'msg_reply', delta: 'reply' }))
    const second = store.addUserMessage(id, 'run_2', 'second')

    expect(store.getConversation(id)?.messages.map((m) => m.id)).toEqual([first.id, 'msg_reply', second.id])
  })

  it('refuses a user message for a conversation that does not exist', () => {
    const store = openStore()
    expect(() => store.addUserMessage('conv_missing', 'run_1', 'hi')).toThrow(/conversation conv_missing not found/)
  })

  it('round-trips model messages per conversation, in order', () => {
    const store = openStore()
    const a = store.createConversation()
    const b = store.createConversation()
    const messages = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }
    ]
    store.appendModelMessages(a.id, 'run_1', messages)
    store.appendModelMessages(b.id, 'run_2', [{ role: 'user', content: 'other' }])
    store.appendModelMessages(a.id, 'run_3', [{ role: 'user', content: 'again' }])

    expect(store.loadModelMessages(a.id)).toEqual([...messages, { role: 'user', content: 'again' }])
    expect(store.loadModelMessages('conv_missing')).toEqual([])
  })
})

describe('settings', () => {
  it('saves and reads JSON values per key, merging partial saves', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    expect(store.getSettings()).toEqual({})

    store.saveSettings({ model: 'gpt-test', maxIterations: 12 })
    store.saveSettings({ autonomy: 'readonly', model: 'gpt-next' })
    store.close()

    expect(openStore(dbPath).getSettings()).toEqual({ model: 'gpt-next', maxIterations: 12, autonomy: 'readonly' })
  })

  it('skips stored values that no longer fit the schema', () => {
    const dbPath = tempDbPath()
    openStore(dbPath).saveSettings({ model: 'ok' })
    const db = new Database(dbPath)
    db.prepare(`INSERT INTO settings (key, value) VALUES ('autonomy', '"reckless"'), ('retired', '1')`).run()
    db.close()

    expect(openStore(dbPath).getSettings()).toEqual({ model: 'ok' })
  })
})
