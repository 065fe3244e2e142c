import { afterEach, describe, expect, it } from 'vitest'
import { SqliteConversationStore, type MemoryStore } from '../../../src/main/store'
import { matchExpression, wordsOf } from '../../../src/main/store/memory-words'
import { RECALL_MEMORIES, RECALL_QUERIES } from '../../fixtures/memory-recall'

let store: SqliteConversationStore | undefined
afterEach(() => store?.close())

function memories(): MemoryStore {
  store = SqliteConversationStore.open(':memory:')
  return store.memories()
}

describe('memory words', () => {
  it('cuts Chinese into words and keeps English words whole', () => {
    expect(wordsOf('用户的生日是三月五日')).toEqual(expect.arrayContaining(['用户', '生日']))
    expect(wordsOf('Use Vitest for UNIT tests')).toEqual(['use', 'vitest', 'for', 'unit', 'tests'])
  })

  it('a query is any of its words, quoted; lone Chinese characters only when nothing else is left', () => {
    expect(matchExpression('我住在哪里')).not.toMatch(/"我"/)
    expect(matchExpression('猫')).toBe('"猫"')
    expect(matchExpression('say "hi" OR NOT')).toBe('"say" OR "hi" OR "or" OR "not"')
    expect(matchExpression('deskfan')).toBe('"deskfan"*')
    expect(matchExpression('？！。')).toBeNull()
  })
})

describe('MemoryStore', () => {
  it('finds the relevant memory among the first five for nine of ten queries of the recall set', () => {
    const book = memories()
    const ids = RECALL_MEMORIES.map((text) => book.save({ text, scope: 'global' }).id)
    let recall = 0
    for (const query of RECALL_QUERIES) {
      const found = book.list({ query: query.query, limit: 5 }).memories.map((memory) => memory.id)
      recall += query.relevant.filter((index) => found.includes(ids[index]!)).length / query.relevant.length
    }
    expect(recall / RECALL_QUERIES.length).toBeGreaterThanOrEqual(0.9)
  })

  it('re-indexes a changed memory and drops a forgotten one from search', () => {
    const book = memories()
    const memory = book.save({ text: '用户喜欢喝拿铁咖啡', scope: 'global' })
    expect(book.update(memory.id, { text: 'The user drinks green tea' })?.text).toBe('The user drinks green tea')
    expect(book.list({ query: '咖啡' }).memories).toEqual([])
    expect(book.list({ query: 'tea' }).memories.map((m) => m.id)).toEqual([memory.id])
    expect(book.forget(memory.id)).toBe(true)
    expect(book.forget(memory.id)).toBe(false)
    expect(book.list({ query: 'tea' })).toEqual({ memories: [], total: 0 })
  })

  it('scopes: a workspace memory belongs to its folder; filters and the run search honour it', () => {
    const book = memories()
    book.save({ text: 'global coffee fact', scope: 'global' })
    book.save({ text: 'coffee fact of project A', scope: 'workspace', workspace: '/work/a' })
    book.save({ text: 'coffee fact of project B', scope: 'workspace', workspace: '/work/b' })
    expect(book.relevant('coffee', '/work/a', 5).map((m) => m.text).sort()).toEqual(['coffee fact of project A', 'global coffee fact'])
    expect(book.list({ filter: 'global' }).total).toBe(1)
    expect(book.list({ filter: 'workspace' }).total).toBe(2)
    expect(() => book.save({ text: 'x', scope: 'workspace' })).toThrow(/folder/)
    expect(() => book.save({ text: '   ', scope: 'global' })).toThrow(/empty/)
  })

  it('leaves out a word most memories hold when rarer ones remain, and ranks by those', () => {
    const book = memories()
    for (let i = 0; i < 120; i++) book.save({ text: `用户的第 ${i} 条偏好：简短回答`, scope: 'global' })
    const birthday = book.save({ text: '用户的生日是三月五日', scope: 'global' })
    const search = book.searchFor('用户的生日是哪天')
    expect(search).toEqual({ match: '"生日"', ranked: true })
    expect(book.relevant('用户的生日是哪天', '/w', 3)[0]?.id).toBe(birthday.id)
    // Only common words: the newest holders come first.
    expect(book.searchFor('用户')?.ranked).toBe(false)
    expect(book.relevant('用户', '/w', 1)[0]?.id).toBe(birthday.id)
  })

  it('tells its listeners of every change', () => {
    const book = memories()
    let heard = 0
    book.onChange(() => heard++)
    const memory = book.save({ text: 'a fact', scope: 'global' })
    book.update(memory.id, { text: 'another fact' })
    book.forget(memory.id)
    expect(heard).toBe(3)
  })
})
