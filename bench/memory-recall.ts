/**
 * Recall of memory search on the recall set (test/fixtures/memory-recall.ts), for the tokenizers
 * SQLite's FTS5 offers in better-sqlite3's build and the segmenter DeskClaw uses (docs/tools.md,
 * "Memory"). Each way indexes the 50 memories and answers the 30 queries; recall@5 is the share of
 * a query's relevant memories among its first five results, averaged over the queries.
 * Used by bench/memory.bench.ts, which prints the table.
 */
import Database from 'better-sqlite3'
import { RECALL_MEMORIES, RECALL_QUERIES, type RecallQuery } from '../test/fixtures/memory-recall'
import { MemoryStore } from '../src/main/store'
import { migrate } from '../src/main/store/migrations'
import { indexedWords, matchExpression, wordsOf } from '../src/main/store/memory-words'

export const RECALL_AT = 5

export interface SearchWay {
  name: string
  /** Builds the index over the memories (rowid = index + 1). */
  build(db: Database.Database, memories: readonly string[]): void
  /** The first `limit` memories for a query, as indexes into the memories. */
  search(db: Database.Database, query: string, limit: number): number[]
}

const quote = (term: string): string => `"${term.replace(/"/g, '""')}"`
const like = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

function ftsWay(name: string, tokenize: string, toIndex: (text: string) => string, toMatch: (query: string) => string | null): SearchWay {
  return {
    name,
    build(db, memories) {
      db.exec(`CREATE VIRTUAL TABLE m USING fts5(body, tokenize='${tokenize}')`)
      const insert = db.prepare('INSERT INTO m (rowid, body) VALUES (?, ?)')
      memories.forEach((text, index) => insert.run(index + 1, toIndex(text)))
    },
    search(db, query, limit) {
      const match = toMatch(query)
      if (!match) return []
      const rows = db.prepare('SELECT rowid FROM m WHERE m MATCH ? ORDER BY bm25(m) LIMIT ?').all(match, limit) as Array<{ rowid: number }>
      return rows.map((row) => row.rowid - 1)
    }
  }
}

/** unicode61 on the raw text: a run of Chinese characters is one token, so only whole runs match. */
const unicode61Raw = ftsWay(
  'unicode61 (raw text)',
  'unicode61 remove_diacritics 2',
  (text) => text,
  (query) => {
    const terms = query.split(/[\s\p{P}]+/u).filter(Boolean)
    return terms.length > 0 ? terms.map(quote).join(' OR ') : null
  }
)

/**
 * trigram on the raw text, the query cut into words by the same segmenter: words of three or more
 * characters through MATCH (bm25), shorter ones by LIKE (which the trigram index cannot serve below
 * three characters, so it scans); ranked by how many of the query's words a memory holds, then bm25.
 */
const trigram: SearchWay = {
  name: 'trigram (+ LIKE for 1–2 characters)',
  build(db, memories) {
    db.exec(`CREATE VIRTUAL TABLE m USING fts5(body, tokenize='trigram')`)
    const insert = db.prepare('INSERT INTO m (rowid, body) VALUES (?, ?)')
    memories.forEach((text, index) => insert.run(index + 1, text.normalize('NFKC').toLowerCase()))
  },
  search(db, query, limit) {
    const words = [...new Set(wordsOf(query))]
    const multi = words.filter((word) => !(/^\p{Script=Han}$/u.test(word)))
    const terms = multi.length > 0 ? multi : words
    if (terms.length === 0) return []
    const long = terms.filter((term) => [...term].length >= 3)
    const short = terms.filter((term) => [...term].length < 3)
    const hits = new Map<number, { count: number; bm25: number }>()
    if (long.length > 0) {
      const rows = db.prepare('SELECT rowid, bm25(m) AS score, body FROM m WHERE m MATCH ?').all(long.map(quote).join(' OR ')) as Array<{ rowid: number; score: number; body: string }>
      for (const row of rows) hits.set(row.rowid, { count: terms.filter((t) => row.body.includes(t)).length, bm25: row.score })
    }
    if (short.length > 0) {
      const where = short.map(() => "body LIKE ? ESCAPE '\\'").join(' OR ')
      const rows = db.prepare(`SELECT rowid, body FROM m WHERE ${where}`).all(...short.map(like)) as Array<{ rowid: number; body: string }>
      for (const row of rows) if (!hits.has(row.rowid)) hits.set(row.rowid, { count: terms.filter((t) => row.body.includes(t)).length, bm25: 0 })
    }
    return [...hits.entries()]
      .sort((a, b) => b[1].count - a[1].count || a[1].bm25 - b[1].bm25)
      .slice(0, limit)
      .map(([rowid]) => rowid - 1)
  }
}

/** ICU word segmentation (src/main/store/memory-words.ts) into a unicode61 index, every query word. */
const segmented = ftsWay('Intl.Segmenter words → unicode61', 'unicode61 remove_diacritics 2', indexedWords, matchExpression)
/** The same with the porter stemmer over it ("preferred" finds "prefers"). */
const segmentedPorter = ftsWay('Intl.Segmenter words → porter unicode61', 'porter unicode61 remove_diacritics 2', indexedWords, matchExpression)

/** What DeskClaw ships: the segmented index through MemoryStore itself (common words left out, migrations.ts schema 9). */
const stores = new WeakMap<Database.Database, { store: MemoryStore; ids: string[] }>()
const shipped: SearchWay = {
  name: 'MemoryStore (segmented unicode61, shipped)',
  build(db, memories) {
    migrate(db)
    const store = new MemoryStore(db)
    stores.set(db, { store, ids: memories.map((text) => store.save({ text, scope: 'global' }).id) })
  },
  search(db, query, limit) {
    const { store, ids } = stores.get(db)!
    return store.list({ query, limit }).memories.map((memory) => ids.indexOf(memory.id))
  }
}

export const SEARCH_WAYS: readonly SearchWay[] = [trigram, unicode61Raw, segmented, segmentedPorter, shipped]

export interface RecallReport {
  way: string
  recall: number
  byKind: Record<RecallQuery['kind'], number>
  misses: string[]
}

/** recall@RECALL_AT of one way over the recall set. */
export function measureRecall(way: SearchWay): RecallReport {
  const db = new Database(':memory:')
  try {
    way.build(db, RECALL_MEMORIES)
    const sums: Record<string, { total: number; n: number }> = {}
    const misses: string[] = []
    let total = 0
    for (const query of RECALL_QUERIES) {
      const found = way.search(db, query.query, RECALL_AT)
      const hit = query.relevant.filter((index) => found.includes(index)).length / query.relevant.length
      if (hit < 1) misses.push(query.query)
      total += hit
      const kind = (sums[query.kind] ??= { total: 0, n: 0 })
      kind.total += hit
      kind.n++
    }
    const byKind = Object.fromEntries(Object.entries(sums).map(([kind, { total: t, n }]) => [kind, t / n])) as RecallReport['byKind']
    return { way: way.name, recall: total / RECALL_QUERIES.length, byKind, misses }
  } finally {
    db.close()
  }
}
