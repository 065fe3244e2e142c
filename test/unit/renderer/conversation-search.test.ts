import { describe, expect, it } from 'vitest'
import type { ConversationSummary } from '../../../src/shared/bridge'
import { highlightSegments } from '../../../src/renderer/src/features/conversations/search-text'
import { sortConversations } from '../../../src/renderer/src/stores/reducers'

describe('highlightSegments', () => {
  it('cuts a snippet into plain and matched parts', () => {
    expect(highlightSegments('…keep the budget for 产品群', [{ start: 10, end: 16 }, { start: 21, end: 24 }])).toEqual([
      { text: '…keep the ', match: false },
      { text: 'budget', match: true },
      { text: ' for ', match: false },
      { text: '产品群', match: true }
    ])
    expect(highlightSegments('budget', [{ start: 0, end: 6 }])).toEqual([{ text: 'budget', match: true }])
    expect(highlightSegments('plain', [])).toEqual([{ text: 'plain', match: false }])
  })

  it('never trusts ranges out of bounds, overlapping or empty', () => {
    expect(highlightSegments('abcdef', [{ start: 4, end: 99 }, { start: 2, end: 5 }, { start: 1, end: 1 }])).toEqual([
      { text: 'abcd', match: false },
      { text: 'ef', match: true }
    ])
  })
})

describe('sortConversations', () => {
  const summary = (id: string, updatedAt: number, pinnedAt?: number): ConversationSummary => ({
    id,
    title: id,
    createdAt: 1,
    updatedAt,
    workspace: null,
    ...(pinnedAt !== undefined ? { pinnedAt } : {})
  })

  it('puts pinned conversations first, most recently pinned on top, then the rest by activity', () => {
    const sorted = sortConversations([summary('a', 10), summary('b', 50), summary('p1', 1, 100), summary('c', 30), summary('p2', 2, 200)])
    expect(sorted.map((c) => c.id)).toEqual(['p2', 'p1', 'b', 'c', 'a'])
  })
})
