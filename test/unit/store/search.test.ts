import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { ConversationSearchResult } from '../../../src/shared'
import { SqliteConversationStore } from '../../../src/main/store'
import { migrate, migrations } from '../../../src/main/store/migrations'
import { parseSearchQuery } from '../../../src/main/store/search'
import { openStore, runEvents, tempDbPath, tempDir } from './helpers'

const USAGE = { inputTokens: 10, outputTokens: 5, totalTokens: 15 }
let clock = Date.now() + 60_000

/** One finished run: the user's prompt and the answer streamed in a few deltas, as the agent records them. */
function converse(store: SqliteConversationStore, conversationId: string, prompt: string, answer: string, runId = `run_${clock}`): void {
  store.addUserMessage(conversationId, runId, prompt)
  const event = runEvents(conversationId, runId, (clock += 1_000))
  store.recordEvent(event('run_started', { prompt, model: 'openai:test' }))
  for (const delta of answer.match(/[\s\S]{1,7}/g) ?? []) store.recordEvent(event('text_delta', { messageId: `msg_${runId}`, delta }))
  store.recordEvent(event('run_completed', { text: answer, stopReason: 'final', iterations: 1, usage: USAGE }))
}

/** The highlighted parts of a result's snippet. */
const marked = (result: ConversationSearchResult): string[] => result.highlights.map(({ start, end }) => result.snippet.slice(start, end))

/** FTS5's own check that each index matches the text it holds. */
function integrityCheck(dbPath: string): void {
  const db = new Database(dbPath)
  try {
    db.exec(`INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')`)
    db.exec(`INSERT INTO conversation_titles_fts (conversation_titles_fts) VALUES ('integrity-check')`)
  } finally {
    db.close()
  }
}

function indexedRows(dbPath: string): { titles: string[]; messages: string[] } {
  const db = new Database(dbPath, { readonly: true })
  try {
    return {
      titles: db.prepare('SELECT title FROM conversation_titles_fts ORDER BY rowid').pluck().all() as string[],
      messages: db.prepare('SELECT content FROM messages_fts ORDER BY rowid').pluck().all() as string[]
    }
  } finally {
    db.close()
  }
}

describe('conversation search', () => {
  it('finds words in titles and message text, one result per conversation, titles first, with a highlighted snippet', () => {
    const store = openStore()
    const plan = store.createConversation('Q3 budget review')
    converse(store, plan.id, 'Summarise the budget numbers', 'The budget is 12% over the plan for marketing.')
    const trip = store.createConversation('Trip to Lisbon')
    converse(
      store,
      trip.id,
      'Plan a three day trip',
      'Day one: the old town. Day two: keep some budget for the tram and the museums. Day three: the coast and a long lunch.'
    )
    store.createConversation('Unrelated')

    const results = store.searchConversations('budget')
    expect(results.map((r) => [r.conversationId, r.field])).toEqual([
      [plan.id, 'title'],
      [trip.id, 'message']
    ])
    expect(results[0]).toMatchObject({ title: 'Q3 budget review', snippet: 'Q3 budget review' })
    expect(marked(results[0]!)).toEqual(['budget'])
    const fromMessage = results[1]!
    expect(fromMessage.title).toBe('Trip to Lisbon')
    expect(fromMessage.messageId).toBe(store.getConversation(trip.id)!.messages[1]!.id)
    expect(fromMessage.snippet).toContain('keep some budget for the tram')
    expect(marked(fromMessage)).toEqual(['budget'])
    expect(fromMessage.updatedAt).toBe(store.getConversation(trip.id)!.conversation.updatedAt)

    // Case does not matter; every word must match (in one title or one message).
    expect(store.searchConversations('BUDGET TRAM').map((r) => r.conversationId)).toEqual([trip.id])
    expect(store.searchConversations('budget lisbon')).toEqual([])
    expect(store.searchConversations('')).toEqual([])
    expect(store.searchConversations('   ')).toEqual([])
  })

  it('ranks the conversation that uses the word more, and limits the results', () => {
    const store = openStore()
    const once = store.createConversation('One')
    converse(store, once.id, 'Tell me about invoices, receipts, payroll and tax forms for the quarter', 'An invoice is a bill.')
    const often = store.createConversation('Two')
    converse(store, often.id, 'invoice invoice invoice', 'Invoice, invoice.')
    expect(store.searchConversations('invoice').map((r) => r.conversationId)).toEqual([often.id, once.id])
    expect(store.searchConversations('invoice', 1)).toHaveLength(1)
  })

  it('finds Chinese text: three or more characters through the index, shorter ones by substring', () => {
    const store = openStore()
    const chat = store.createConversation('整理讨论')
    converse(store, chat.id, '请帮我整理产品群里的讨论，然后把结论发给产品经理。', '好的，我已经把产品群的讨论整理成三点结论。')
    const other = store.createConversation('预算')
    converse(store, other.id, '今年的预算是多少？', '预算还没有定。')

    const [hit, ...rest] = store.searchConversations('产品群')
    expect(rest).toEqual([])
    expect(hit).toMatchObject({ conversationId: chat.id, field: 'message' })
    expect(hit!.snippet).toContain('产品群')
    expect(marked(hit!)).toEqual(['产品群'])

    // Two characters: below the trigram index, found by substring (title first, as with the index).
    expect(store.searchConversations('预算').map((r) => [r.conversationId, r.field])).toEqual([[other.id, 'title']])
    const short = store.searchConversations('结论')
    expect(short.map((r) => r.conversationId)).toEqual([chat.id])
    expect(marked(short[0]!).every((text) => text === '结论')).toBe(true)
    // A long term and a short one together: both must match.
    expect(store.searchConversations('产品群 结论').map((r) => r.conversationId)).toEqual([chat.id])
    expect(store.searchConversations('产品群 预算')).toEqual([])
  })

  it('cuts a snippet around a short match in a long message', () => {
    const store = openStore()
    const chat = store.createConversation('Long')
    const filler = 'lorem ipsum dolor sit amet '.repeat(10)
    converse(store, chat.id, `${filler}Q3 ${filler}`, 'ok')
    const [hit] = store.searchConversations('q3')
    expect(hit!.snippet.startsWith('…')).toBe(true)
    expect(hit!.snippet.endsWith('…')).toBe(true)
    expect(Array.from(hit!.snippet).length).toBeLessThan(80)
    expect(marked(hit!)).toEqual(['Q3'])
  })

  it('treats search syntax as text: quotes, stars, NEAR(, column filters and LIKE wildcards never throw', () => {
    const store = openStore()
    const chat = store.createConversation('Syntax')
    converse(store, chat.id, 'He typed "NEAR(alpha beta)" and title:* with 100% of the_budget -x ^y', 'Noted.')
    const queries = [
      '"', '""', '"budget', 'budget"', '*', 'budget*', '* OR *', 'NEAR(', 'NEAR(alpha beta)', 'NEAR(a b, 2)',
      'AND', 'OR', 'NOT', 'a AND', '(', ')', '((', 'title:', 'title:*', 'content:budget', '{title}: x', '-x', '^y',
      '+', ':', "'", '\\', '%', '_', '100%', 'the_budget', '\u0000', 'budget\u0000', '\uE000', '😀', '"NEAR(" OR "'
    ]
    for (const query of queries) expect(() => store.searchConversations(query), query).not.toThrow()

    const found = (query: string) => store.searchConversations(query).map((r) => r.conversationId)
    expect(found('"NEAR(alpha')).toEqual([chat.id])
    expect(found('NEAR(alpha beta)')).toEqual([chat.id])
    expect(found('title:*')).toEqual([chat.id])
    expect(found('100%')).toEqual([chat.id])
    expect(found('%')).toEqual([chat.id]) // a literal percent sign, not "anything"
    expect(found('the_budget')).toEqual([chat.id])
    expect(found('_')).toEqual([chat.id])
    expect(found('*')).toEqual([chat.id])
    expect(found('OR')).toEqual([]) // a word, not an operator; the text has no "or"
    expect(found('%%')).toEqual([])
  })

  it('keeps the index in step with renames, new messages and deletes', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    const chat = store.createConversation('Kitchen remodel')
    converse(store, chat.id, 'Compare tile prices', 'Porcelain tiles cost more than ceramic.')
    const keep = store.createConversation('Garden')
    converse(store, keep.id, 'Which tiles for the patio?', 'Slate tiles.')

    store.renameConversation(chat.id, 'Bathroom renovation')
    expect(store.searchConversations('kitchen')).toEqual([])
    expect(store.searchConversations('bathroom').map((r) => r.conversationId)).toEqual([chat.id])

    // A run's first prompt titles an untitled conversation: that title is searchable too.
    const untitled = store.createConversation()
    converse(store, untitled.id, 'Draft the wedding speech', 'Here is a draft.')
    expect(store.searchConversations('wedding').map((r) => [r.conversationId, r.field])).toEqual([[untitled.id, 'title']])

    expect(store.searchConversations('porcelain').map((r) => r.conversationId)).toEqual([chat.id])
    expect(store.deleteConversation(chat.id)).toBe(true)
    expect(store.searchConversations('porcelain')).toEqual([])
    expect(store.searchConversations('bathroom')).toEqual([])
    expect(store.searchConversations('tiles').map((r) => r.conversationId)).toEqual([keep.id])
    expect(indexedRows(dbPath).titles).toEqual(['Garden', 'Draft the wedding speech'])
    expect(indexedRows(dbPath).messages).toEqual(['Which tiles for the patio?', 'Slate tiles.', 'Draft the wedding speech', 'Here is a draft.'])
    integrityCheck(dbPath)
  })

  it('indexes a streaming answer once its run ends (completed, failed or interrupted), not token by token', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    const chat = store.createConversation('Streaming')
    store.addUserMessage(chat.id, 'run_s', 'Write about otters')
    const event = runEvents(chat.id, 'run_s', (clock += 1_000))
    store.recordEvent(event('run_started', { prompt: 'Write about otters', model: 'openai:test' }))
    store.recordEvent(event('text_delta', { messageId: 'msg_s', delta: 'Sea otters hold ' }))
    store.recordEvent(event('text_delta', { messageId: 'msg_s', delta: 'hands while sleeping.' }))
    // The question is found at once; the answer while it streams is not (yet).
    expect(store.searchConversations('otters').map((r) => r.field)).toEqual(['message'])
    expect(store.searchConversations('sleeping')).toEqual([])
    store.recordEvent(event('run_failed', { error: { code: 'MODEL_ERROR', message: 'stream cut' } }))
    expect(store.searchConversations('hands while sleeping').map((r) => r.messageId)).toEqual(['msg_s'])

    // A run left open by a crash is indexed when recovery marks it interrupted.
    store.addUserMessage(chat.id, 'run_c', 'And beavers?')
    const crashed = runEvents(chat.id, 'run_c', (clock += 1_000))
    store.recordEvent(crashed('run_started', { prompt: 'And beavers?', model: 'openai:test' }))
    store.recordEvent(crashed('text_delta', { messageId: 'msg_c', delta: 'Beavers build dams.' }))
    expect(store.searchConversations('dams')).toEqual([])
    store.recoverInterrupted()
    expect(store.searchConversations('dams').map((r) => r.messageId)).toEqual(['msg_c'])

    // A delta after the run ended (out of order) updates the indexed text.
    store.recordEvent(crashed('text_delta', { messageId: 'msg_c', delta: ' And lodges.' }))
    expect(store.searchConversations('lodges').map((r) => r.messageId)).toEqual(['msg_c'])
    expect(store.searchConversations('dams').map((r) => r.messageId)).toEqual(['msg_c'])
    integrityCheck(dbPath)

    // Deleting mid-run (the answer never indexed) leaves the index whole.
    store.addUserMessage(chat.id, 'run_d', 'Last one')
    const cut = runEvents(chat.id, 'run_d', (clock += 1_000))
    store.recordEvent(cut('run_started', { prompt: 'Last one', model: 'openai:test' }))
    store.recordEvent(cut('text_delta', { messageId: 'msg_d', delta: 'Unfinished' }))
    store.deleteConversation(chat.id)
    expect(indexedRows(dbPath)).toEqual({ titles: [], messages: [] })
    integrityCheck(dbPath)
  })
})

describe('pinned conversations', () => {
  it('list first, most recently pinned on top, then by activity; pinning is not activity', () => {
    const store = openStore()
    const a = store.createConversation('A')
    const b = store.createConversation('B')
    const c = store.createConversation('C')
    converse(store, a.id, 'first', 'one')
    converse(store, b.id, 'second', 'two')
    converse(store, c.id, 'third', 'three')
    const ids = () => store.listConversations().map((conversation) => conversation.title)
    expect(ids()).toEqual(['C', 'B', 'A'])

    const pinnedA = store.setConversationPinned(a.id, true)!
    expect(pinnedA.pinnedAt).toEqual(expect.any(Number))
    expect(pinnedA.updatedAt).toBe(store.getConversation(a.id)!.conversation.updatedAt)
    expect(ids()).toEqual(['A', 'C', 'B'])

    const later = pinnedA.pinnedAt! + 5
    const realNow = Date.now
    Date.now = () => later
    try {
      store.setConversationPinned(b.id, true)
    } finally {
      Date.now = realNow
    }
    expect(ids()).toEqual(['B', 'A', 'C'])
    // Pinning again keeps the first pin time (and the order).
    expect(store.setConversationPinned(a.id, true)!.pinnedAt).toBe(pinnedA.pinnedAt)
    expect(ids()).toEqual(['B', 'A', 'C'])
    // New activity moves unpinned conversations, never above the pinned group.
    converse(store, c.id, 'fourth', 'four')
    expect(ids()).toEqual(['B', 'A', 'C'])
    converse(store, a.id, 'fifth', 'five')
    expect(ids()).toEqual(['B', 'A', 'C'])

    const unpinned = store.setConversationPinned(b.id, false)!
    expect(unpinned).not.toHaveProperty('pinnedAt')
    expect(ids()).toEqual(['A', 'C', 'B'])
    expect(store.searchConversations('fifth')[0]).toMatchObject({ conversationId: a.id, pinnedAt: pinnedA.pinnedAt })
    expect(store.setConversationPinned('conv_missing', true)).toBeNull()
  })

  it('a pin survives reopening the file', () => {
    const dbPath = tempDbPath()
    const first = openStore(dbPath)
    const old = first.createConversation('Old')
    first.createConversation('New')
    first.setConversationPinned(old.id, true)
    first.close()
    expect(openStore(dbPath).listConversations().map((c) => [c.title, c.pinnedAt !== undefined])).toEqual([
      ['Old', true],
      ['New', false]
    ])
  })
})

describe('schema 6 migration', () => {
  it('indexes the titles and messages of an existing file, and leaves the answer of a run still going for its end', () => {
    const dbPath = path.join(tempDir(), 'deskclaw.db')
    // A file as schema 5 left it, with rows written before search existed.
    const db = new Database(dbPath)
    migrate(db, migrations.slice(0, 5))
    db.exec(`
      INSERT INTO conversations (id, title, created_at, updated_at) VALUES
        ('conv_old', 'Budget planning', 1, 10), ('conv_zh', '产品群讨论', 2, 20), ('conv_live', 'Live', 3, 30);
      INSERT INTO runs (id, conversation_id, status, started_at) VALUES
        ('run_old', 'conv_old', 'completed', 1), ('run_zh', 'conv_zh', 'completed', 2), ('run_live', 'conv_live', 'running', 3);
      INSERT INTO messages (id, conversation_id, run_id, role, content, created_at, seq) VALUES
        ('m1', 'conv_old', 'run_old', 'user', 'How much is left of the marketing budget?', 1, 1),
        ('m2', 'conv_old', 'run_old', 'assistant', 'About forty percent remains.', 2, 2),
        ('m3', 'conv_zh', 'run_zh', 'user', '总结一下产品群的讨论', 3, 1),
        ('m4', 'conv_live', 'run_live', 'user', 'Count the penguins', 4, 1),
        ('m5', 'conv_live', 'run_live', 'assistant', 'So far seven penguins', 5, 2);
    `)
    expect(db.pragma('user_version', { simple: true })).toBe(5)
    db.close()

    const store = openStore(dbPath)
    expect(store.searchConversations('forty percent').map((r) => r.conversationId)).toEqual(['conv_old'])
    expect(store.searchConversations('budget').map((r) => [r.conversationId, r.field])).toEqual([['conv_old', 'title']])
    expect(store.searchConversations('产品群').map((r) => [r.conversationId, r.field])).toEqual([['conv_zh', 'title']])
    expect(store.searchConversations('总结').map((r) => r.conversationId)).toEqual(['conv_zh'])
    expect(store.searchConversations('penguins').map((r) => r.messageId)).toEqual(['m4'])
    expect(store.listConversations().every((c) => c.pinnedAt === undefined)).toBe(true)
    integrityCheck(dbPath)

    store.recoverInterrupted()
    expect(store.searchConversations('seven penguins').map((r) => r.messageId)).toEqual(['m5'])
    integrityCheck(dbPath)
  })
})

describe('parseSearchQuery', () => {
  it('quotes each term as one phrase and sends short ones to LIKE, escaped', () => {
    expect(parseSearchQuery('  ')).toBeNull()
    expect(parseSearchQuery('budget "q3" 50%_x')).toEqual({
      match: '"budget" AND """q3""" AND "50%_x"',
      likes: [],
      terms: ['budget', '"q3"', '50%_x']
    })
    expect(parseSearchQuery('预算 产品群 a_ %')).toEqual({
      match: '"产品群"',
      likes: ['%预算%', '%a\\_%', '%\\%%'],
      terms: ['预算', '产品群', 'a_', '%']
    })
  })
})
