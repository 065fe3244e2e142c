import type Database from 'better-sqlite3'
import type { ConversationSearchResult } from '../../shared'

/**
 * Conversation search over the trigram FTS5 tables of schema 6 (migrations.ts). User text is never
 * FTS syntax: each whitespace-separated term becomes one quoted phrase, all of them required. The
 * trigram tokenizer matches nothing for a term shorter than three characters ("Q3", "预算"), so such
 * terms are LIKE conditions instead: beside the MATCH when the query has a longer term, or alone.
 */

export const SEARCH_DEFAULT_LIMIT = 20
export const SEARCH_MAX_LIMIT = 50
const MAX_TERMS = 8
/** Matching rows read before grouping by conversation: the best of each conversation is kept. */
const CANDIDATE_ROWS = 500
/** Rows read when only LIKE terms are given (no index helps; newest conversations first). */
const LIKE_CANDIDATE_ROWS = 200
/** Trigram tokens in a snippet: about one per character. */
const SNIPPET_TOKENS = 48
/** Characters kept before the first match when the snippet is cut in JS (LIKE-only queries). */
const LIKE_CONTEXT_BEFORE = 16
const LIKE_SNIPPET_CHARS = 64
// Private-use characters mark matches in snippet() output; they are removed before it leaves here.
const OPEN = '\uE000'
const CLOSE = '\uE001'
const ELLIPSIS = '…'

type Range = { start: number; end: number }

export interface SearchQuery {
  /** The FTS5 expression of the terms of three or more characters; null when there are none. */
  match: string | null
  /** LIKE patterns (escaped with '\') of the shorter terms. */
  likes: string[]
  /** Every term, for highlighting what snippet() could not. */
  terms: string[]
}

/** The query as FTS5 and LIKE terms; null when it has no term at all. */
export function parseSearchQuery(query: string): SearchQuery | null {
  const terms = query
    .normalize('NFC')
    // Control characters and our markers are never searched for (NUL would end the FTS5 string).
    .replace(/[\p{Cc}\uE000\uE001]/gu, ' ')
    .split(/\s+/u)
    .filter((term) => term.length > 0)
    .slice(0, MAX_TERMS)
  if (terms.length === 0) return null
  const long = terms.filter((term) => Array.from(term).length >= 3)
  const short = terms.filter((term) => Array.from(term).length < 3)
  return {
    match: long.length > 0 ? long.map((term) => `"${term.replace(/"/g, '""')}"`).join(' AND ') : null,
    likes: short.map((term) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
    terms
  }
}

interface Hit {
  conversationId: string
  rowid: number
  field: 'title' | 'message'
  messageId?: string
  /** The row's text: only read for LIKE-only queries, whose snippet is cut here. */
  text?: string
}

interface ConversationFacts {
  title: string
  updated_at: number
  pinned_at: number | null
}

/** Searches one database; statements are prepared on first use (their SQL depends on the term count). */
export class ConversationSearch {
  private readonly cache = new Map<string, Database.Statement>()

  constructor(private readonly db: Database.Database) {}

  search(query: string, limit = SEARCH_DEFAULT_LIMIT): ConversationSearchResult[] {
    const parsed = parseSearchQuery(query)
    const max = Math.min(Math.max(1, Math.floor(limit)), SEARCH_MAX_LIMIT)
    if (!parsed) return []
    // One snapshot for every read, so a write between them cannot pair a hit with a missing row.
    return this.db.transaction(() => this.searchInSnapshot(parsed, max))()
  }

  private searchInSnapshot(query: SearchQuery, limit: number): ConversationSearchResult[] {
    // Title matches first: a conversation named after the words is the likeliest one wanted.
    const hits = [...this.titleHits(query), ...this.messageHits(query)]
    const best = new Map<string, Hit>()
    for (const hit of hits) {
      if (!best.has(hit.conversationId)) best.set(hit.conversationId, hit)
      if (best.size >= limit) break
    }
    const facts = this.statement(
      'facts',
      `SELECT title, updated_at, pinned_at FROM conversations WHERE id = ?`
    )
    const results: ConversationSearchResult[] = []
    for (const hit of best.values()) {
      const conversation = facts.get(hit.conversationId) as ConversationFacts | undefined
      if (!conversation) continue
      const { snippet, highlights } = this.snippetOf(hit, query)
      results.push({
        conversationId: hit.conversationId,
        title: conversation.title,
        field: hit.field,
        ...(hit.messageId ? { messageId: hit.messageId } : {}),
        snippet,
        highlights,
        updatedAt: conversation.updated_at,
        ...(conversation.pinned_at != null ? { pinnedAt: conversation.pinned_at } : {})
      })
    }
    return results
  }

  private titleHits(query: SearchQuery): Hit[] {
    const likes = query.likes.map((_, i) => `AND f.title LIKE @like${i} ESCAPE '\\'`).join(' ')
    const sql = query.match
      ? `SELECT f.rowid AS rowid, f.conversation_id AS conversationId
         FROM conversation_titles_fts f JOIN conversations c ON c.id = f.conversation_id
         WHERE conversation_titles_fts MATCH @match ${likes}
         ORDER BY f.rank LIMIT ${CANDIDATE_ROWS}`
      : `SELECT f.rowid AS rowid, f.conversation_id AS conversationId, f.title AS text
         FROM conversation_titles_fts f JOIN conversations c ON c.id = f.conversation_id
         WHERE 1 ${likes}
         ORDER BY c.updated_at DESC, c.rowid DESC LIMIT ${LIKE_CANDIDATE_ROWS}`
    const rows = this.statement(sql, sql).all(params(query)) as Array<Omit<Hit, 'field'>>
    return rows.map((row) => ({ ...row, field: 'title' }))
  }

  private messageHits(query: SearchQuery): Hit[] {
    const likes = query.likes.map((_, i) => `AND f.content LIKE @like${i} ESCAPE '\\'`).join(' ')
    // The join on the message's id (its primary key) keeps out any row whose message is gone.
    const sql = query.match
      ? `SELECT f.rowid AS rowid, f.conversation_id AS conversationId, f.message_id AS messageId
         FROM messages_fts f JOIN messages m ON m.id = f.message_id
         WHERE messages_fts MATCH @match ${likes}
         ORDER BY f.rank LIMIT ${CANDIDATE_ROWS}`
      : `SELECT f.rowid AS rowid, f.conversation_id AS conversationId, f.message_id AS messageId, f.content AS text
         FROM messages_fts f JOIN messages m ON m.id = f.message_id JOIN conversations c ON c.id = m.conversation_id
         WHERE 1 ${likes}
         ORDER BY c.updated_at DESC, m.seq DESC LIMIT ${LIKE_CANDIDATE_ROWS}`
    const rows = this.statement(sql, sql).all(params(query)) as Array<Omit<Hit, 'field'>>
    return rows.map((row) => ({ ...row, field: 'message' }))
  }

  private snippetOf(hit: Hit, query: SearchQuery): { snippet: string; highlights: Range[] } {
    if (!query.match) return cutSnippet(hit.text ?? '', query.terms)
    const [table, column] = hit.field === 'title' ? ['conversation_titles_fts', 1] : ['messages_fts', 2]
    // CAST: better-sqlite3 binds a JS number as REAL, and FTS5 (3.53) ignores `rowid = <real>` beside
    // a MATCH, returning every matching row.
    const marked = this.statement(
      `snippet:${table}`,
      `SELECT snippet(${table}, ${column}, '${OPEN}', '${CLOSE}', '${ELLIPSIS}', ${SNIPPET_TOKENS})
       FROM ${table} WHERE ${table} MATCH @match AND rowid = CAST(@rowid AS INTEGER)`
    )
      .pluck()
      .get({ match: query.match, rowid: hit.rowid }) as string | undefined
    const { text, highlights } = parseMarked(marked ?? '')
    // Terms too short for the index were matched by LIKE; mark them the same way.
    return { snippet: text, highlights: mergeRanges([...highlights, ...findTerms(text, query.terms)]) }
  }

  private statement(key: string, sql: string): Database.Statement {
    let statement = this.cache.get(key)
    if (!statement) {
      statement = this.db.prepare(sql)
      this.cache.set(key, statement)
    }
    return statement
  }
}

function params(query: SearchQuery): Record<string, string> {
  const bound: Record<string, string> = {}
  if (query.match) bound.match = query.match
  query.likes.forEach((like, i) => (bound[`like${i}`] = like))
  return bound
}

/** snippet() output with its markers turned into ranges, whitespace collapsed. */
export function parseMarked(marked: string): { text: string; highlights: Range[] } {
  const collapsed = marked.replace(/\s+/gu, ' ').trim()
  let text = ''
  let open = -1
  const highlights: Range[] = []
  for (const char of collapsed) {
    if (char === OPEN) {
      open = text.length
    } else if (char === CLOSE) {
      if (open >= 0 && text.length > open) highlights.push({ start: open, end: text.length })
      open = -1
    } else {
      text += char
    }
  }
  return { text, highlights: mergeRanges(highlights) }
}

/** A snippet cut around the first match of any term (case-insensitive), for LIKE-only queries. */
export function cutSnippet(source: string, terms: string[]): { snippet: string; highlights: Range[] } {
  const text = source.replace(/\s+/gu, ' ').trim()
  const first = findTerms(text, terms)[0]
  const chars = Array.from(text)
  if (chars.length <= LIKE_SNIPPET_CHARS) return { snippet: text, highlights: findTerms(text, terms) }
  // Work in code points, so a cut never splits a surrogate pair.
  const firstChar = first ? Array.from(text.slice(0, first.start)).length : 0
  const start = Math.max(0, Math.min(firstChar - LIKE_CONTEXT_BEFORE, chars.length - LIKE_SNIPPET_CHARS))
  const end = Math.min(chars.length, start + LIKE_SNIPPET_CHARS)
  const snippet = (start > 0 ? ELLIPSIS : '') + chars.slice(start, end).join('') + (end < chars.length ? ELLIPSIS : '')
  return { snippet, highlights: findTerms(snippet, terms) }
}

/** Every case-insensitive occurrence of the terms in `text`, merged and in order. */
function findTerms(text: string, terms: string[]): Range[] {
  const ranges: Range[] = []
  for (const term of terms) {
    const pattern = new RegExp(term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu')
    for (const match of text.matchAll(pattern)) {
      if (match[0].length > 0) ranges.push({ start: match.index, end: match.index + match[0].length })
    }
  }
  return mergeRanges(ranges)
}

function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || a.end - b.end)
  const merged: Range[] = []
  for (const range of sorted) {
    const last = merged[merged.length - 1]
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end)
    else merged.push({ ...range })
  }
  return merged
}
