import { resolve } from 'node:path'
import type Database from 'better-sqlite3'
import { AppError, MEMORY_TEXT_MAX, newId, type Memory, type MemoryFilter, type MemoryScope } from '../../shared'
import { anyOf, indexedWords, queryWords, type QueryWord } from './memory-words'

/**
 * What the agent remembers across conversations (docs/tools.md, "Memory"), in the conversation
 * file (schema 9): a `memories` row per memory and its words in the contentless FTS5 table
 * `memories_fts` (rowid = memories.n). Every write goes through here, since the index holds the
 * segmented words (memory-words.ts), which no SQL trigger can compute.
 */

export interface MemorySource {
  conversationId: string
  runId?: string
  callId?: string
}

export interface NewMemory {
  text: string
  scope: MemoryScope
  /** The folder, for a workspace memory. */
  workspace?: string
  source?: MemorySource
}

export interface MemoryChange {
  text?: string
  scope?: MemoryScope
  workspace?: string
}

export interface MemoryQuery {
  /** Words to look for (Chinese, English or both); absent: newest first. */
  query?: string
  filter?: MemoryFilter
  /** Only global memories and this folder's. */
  workspace?: string
  limit?: number
}

interface MemoryRow {
  id: string
  text: string
  scope: MemoryScope
  workspace: string | null
  source_conversation_id: string | null
  source_run_id: string | null
  source_call_id: string | null
  message_id: string | null
  created_at: number
  updated_at: number
}

const DEFAULT_LIMIT = 50
/**
 * A word held by more than this share of the memories (and more than COMMON_MIN of them) says
 * little about which memory is meant ("the", "用户"), and ranking every memory that holds it costs
 * time proportional to their number: it is left out of a query that has rarer words.
 */
const COMMON_SHARE = 0.05
const COMMON_MIN = 50
/** At most this many of a query's rarest words are searched for. */
const MAX_SEARCHED_WORDS = 8
/** Columns of a memory as read, with the question it was saved while answering (runs, schema 8). */
const COLUMNS = `m.id, m.text, m.scope, m.workspace, m.source_conversation_id, m.source_run_id, m.source_call_id,
  (SELECT r.answers_message_id FROM runs r WHERE r.id = m.source_run_id) AS message_id, m.created_at, m.updated_at`

export class MemoryStore {
  private readonly listeners = new Set<() => void>()
  private readonly statements: ReturnType<typeof prepare>
  private readonly searches = new Map<string, Database.Statement>()

  constructor(private readonly db: Database.Database) {
    this.statements = prepare(db)
  }

  /** Called after every save, change and deletion (the app tells the front doors). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  save(memory: NewMemory): Memory {
    const text = checkedText(memory.text)
    const workspace = workspaceOf(memory.scope, memory.workspace)
    const now = Date.now()
    const id = newId('mem')
    this.db.transaction(() => {
      const { lastInsertRowid } = this.statements.insert.run({
        id,
        text,
        scope: memory.scope,
        workspace,
        conversationId: memory.source?.conversationId ?? null,
        runId: memory.source?.runId ?? null,
        callId: memory.source?.callId ?? null,
        now
      })
      this.statements.index.run(lastInsertRowid, indexedWords(text))
    })()
    this.changed()
    return this.get(id)!
  }

  get(id: string): Memory | null {
    const row = this.statements.get.get(id) as MemoryRow | undefined
    return row ? toMemory(row) : null
  }

  update(id: string, change: MemoryChange): Memory | null {
    const current = this.statements.getRow.get(id) as { n: number; text: string; scope: MemoryScope; workspace: string | null } | undefined
    if (!current) return null
    const text = change.text === undefined ? current.text : checkedText(change.text)
    const scope = change.scope ?? current.scope
    const workspace = workspaceOf(scope, change.workspace ?? current.workspace ?? undefined)
    this.db.transaction(() => {
      this.statements.update.run({ id, text, scope, workspace, now: Date.now() })
      if (text !== current.text) {
        this.statements.unindex.run(current.n)
        this.statements.index.run(current.n, indexedWords(text))
      }
    })()
    this.changed()
    return this.get(id)
  }

  /** Deletes a memory; false when there was none. */
  forget(id: string): boolean {
    const current = this.statements.getRow.get(id) as { n: number } | undefined
    if (!current) return false
    this.db.transaction(() => {
      this.statements.unindex.run(current.n)
      this.statements.delete.run(id)
    })()
    this.changed()
    return true
  }

  /**
   * Memories matching a query, best first (bm25 over the words), or the newest without one; with
   * the number of memories the filter admits (for "12 of 340").
   */
  list(options: MemoryQuery = {}): { memories: Memory[]; total: number } {
    const { where, params } = filterClause(options)
    const memories = this.find(options)
    const total = (this.cached(`count:${where}`, `SELECT count(*) AS n FROM memories m WHERE ${where}`).get(params) as { n: number }).n
    return { memories, total }
  }

  /** The best matches among the global memories and this folder's (what a run is offered). */
  relevant(query: string, workspace: string, limit: number): Memory[] {
    return this.find({ query, workspace, limit })
  }

  private find(options: MemoryQuery): Memory[] {
    const limit = options.limit ?? DEFAULT_LIMIT
    const { where, params } = filterClause(options)
    const search = options.query ? this.searchFor(options.query) : null
    if (options.query && !search) return []
    if (!search) {
      const rows = this.cached(`newest:${where}`, `SELECT ${COLUMNS} FROM memories m WHERE ${where} ORDER BY m.updated_at DESC, m.n DESC LIMIT @limit`).all({ ...params, limit }) as MemoryRow[]
      return rows.map(toMemory)
    }
    // Only common words: every memory holding one is as good as another, so the newest come first
    // (FTS5 walks its rowids backwards and stops at the limit instead of ranking them all).
    const order = search.ranked ? 'bm25(memories_fts), m.updated_at DESC' : 'f.rowid DESC'
    const rows = this.cached(
      `match:${search.ranked}:${where}`,
      `SELECT ${COLUMNS} FROM memories_fts f JOIN memories m ON m.n = f.rowid
       WHERE memories_fts MATCH @match AND ${where} ORDER BY ${order} LIMIT @limit`
    ).all({ ...params, match: search.match, limit }) as MemoryRow[]
    return rows.map(toMemory)
  }

  /**
   * The FTS5 expression for a query: its words that some memory holds, the common ones left out
   * when rarer ones remain (COMMON_SHARE); `ranked` is false when only common words are left.
   * Public for the benchmark's floor (bench/memory.bench.ts), which runs the same expression raw.
   */
  searchFor(query: string): { match: string; ranked: boolean } | null {
    // The highest rowid counts the memories ever saved: deletions make it an overestimate, which
    // only lets a few more words count as rare; an index lookup, not a count of every row.
    const memories = (this.statements.count.get() as { n: number | null }).n ?? 0
    const common = Math.max(COMMON_MIN, memories * COMMON_SHARE)
    const held = queryWords(query)
      .map((word) => ({ word, holders: this.holders(word) }))
      .filter(({ holders }) => holders > 0)
      .sort((a, b) => a.holders - b.holders)
    if (held.length === 0) return null
    const rare = held.filter(({ holders }) => holders <= common)
    const chosen = (rare.length > 0 ? rare : held).slice(0, MAX_SEARCHED_WORDS)
    return { match: anyOf(chosen.map(({ word }) => word))!, ranked: rare.length > 0 }
  }

  /** How many memories hold a word (for a prefix: the sum over the words it begins, an upper bound). */
  private holders({ word, prefix }: QueryWord): number {
    if (!prefix) return (this.statements.holders.get(word) as { doc: number } | undefined)?.doc ?? 0
    return (this.statements.prefixHolders.get(word, `${word}\u{10FFFF}`) as { n: number | null }).n ?? 0
  }

  /** Which tool calls of a conversation saved a memory that still exists (the timeline's "Undo"). */
  savedIn(conversationId: string): Array<{ callId: string; memoryId: string }> {
    return (this.statements.savedIn.all(conversationId) as Array<{ callId: string; memoryId: string }>).filter((row) => row.callId !== null)
  }

  private cached(key: string, sql: string): Database.Statement {
    let statement = this.searches.get(key)
    if (!statement) {
      statement = this.db.prepare(sql)
      this.searches.set(key, statement)
    }
    return statement
  }

  private changed(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener()
      } catch {
        // A front door that fails to hear of a change must not undo the change.
      }
    }
  }
}

function prepare(db: Database.Database) {
  // How many memories hold each word, read from the index itself (per connection, so in temp).
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.memories_vocab USING fts5vocab(main, memories_fts, row)')
  return {
    insert: db.prepare(
      `INSERT INTO memories (id, text, scope, workspace, source_conversation_id, source_run_id, source_call_id, created_at, updated_at)
       VALUES (@id, @text, @scope, @workspace, @conversationId, @runId, @callId, @now, @now)`
    ),
    index: db.prepare('INSERT INTO memories_fts (rowid, words) VALUES (?, ?)'),
    unindex: db.prepare('DELETE FROM memories_fts WHERE rowid = ?'),
    get: db.prepare(`SELECT ${COLUMNS} FROM memories m WHERE m.id = ?`),
    getRow: db.prepare('SELECT n, text, scope, workspace FROM memories WHERE id = ?'),
    update: db.prepare('UPDATE memories SET text = @text, scope = @scope, workspace = @workspace, updated_at = @now WHERE id = @id'),
    delete: db.prepare('DELETE FROM memories WHERE id = ?'),
    savedIn: db.prepare('SELECT source_call_id AS callId, id AS memoryId FROM memories WHERE source_conversation_id = ? AND source_call_id IS NOT NULL'),
    count: db.prepare('SELECT max(n) AS n FROM memories'),
    holders: db.prepare('SELECT doc FROM temp.memories_vocab WHERE term = ?'),
    prefixHolders: db.prepare('SELECT sum(doc) AS n FROM temp.memories_vocab WHERE term >= ? AND term < ?')
  }
}

/** The WHERE clause of a filter (always the same SQL for the same filter shape, so statements are reused). */
function filterClause(options: MemoryQuery): { where: string; params: Record<string, string> } {
  const parts: string[] = []
  const params: Record<string, string> = {}
  if (options.filter === 'global') parts.push("m.scope = 'global'")
  if (options.filter === 'workspace') parts.push("m.scope = 'workspace'")
  if (options.workspace !== undefined) {
    parts.push("(m.scope = 'global' OR m.workspace = @workspace)")
    params.workspace = resolve(options.workspace)
  }
  return { where: parts.length > 0 ? parts.join(' AND ') : '1', params }
}

function checkedText(text: string): string {
  const trimmed = text.trim()
  if (trimmed.length === 0) throw new AppError('VALIDATION_FAILED', 'A memory cannot be empty.')
  if (trimmed.length > MEMORY_TEXT_MAX) throw new AppError('VALIDATION_FAILED', `A memory is at most ${MEMORY_TEXT_MAX} characters.`)
  return trimmed
}

function workspaceOf(scope: MemoryScope, workspace: string | undefined): string | null {
  if (scope === 'global') return null
  if (!workspace) throw new AppError('VALIDATION_FAILED', 'A workspace memory needs its folder.')
  return resolve(workspace)
}

function toMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    text: row.text,
    scope: row.scope,
    workspace: row.workspace,
    source: row.source_conversation_id
      ? { conversationId: row.source_conversation_id, runId: row.source_run_id, callId: row.source_call_id, messageId: row.message_id }
      : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  }
}
