/**
 * Words of a memory and of a query (docs/tools.md, "Memory"). Chinese has no spaces, so the text is
 * cut into words with ICU's dictionary segmenter (Intl.Segmenter, in Node and Electron alike) and
 * stored space-separated in a unicode61 FTS5 index; English is cut at word boundaries the same way.
 * The recall set in bench/memory.bench.ts chose this over the trigram tokenizer, which cannot match
 * the two-character words most Chinese queries are made of.
 */

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' })
/** More words than a question needs; the rest are ignored (each is one OR term). */
const MAX_QUERY_WORDS = 32
/** Letters of scripts written without spaces between words (one character is then a word part, not a word). */
const HAN = /^\p{Script=Han}+$/u
/**
 * Latin words of four letters or more also match as prefixes ("deskfan" finds "deskfan42",
 * "prefer" finds "preferred"); shorter ones would match half the index ("the" → "there", "them").
 */
const PREFIXED = /^[a-z][a-z0-9]{3,}$/

/** The words of `text`, lower-cased, in order (repeats kept: they weigh in the ranking). */
export function wordsOf(text: string): string[] {
  const words: string[] = []
  for (const part of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (part.isWordLike) words.push(part.segment)
  }
  return words
}

/** What the FTS index stores for a memory: its words, space-separated. */
export function indexedWords(text: string): string {
  return wordsOf(text).join(' ')
}

/** One word of a query as the index is asked for it. */
export interface QueryWord {
  word: string
  prefix: boolean
}

/**
 * The distinct words of a query. A single Chinese character ("我", "的") is left out when the
 * query has longer words: alone it matches too much to rank by.
 */
export function queryWords(query: string): QueryWord[] {
  const words = [...new Set(wordsOf(query))]
  const longer = words.filter((word) => !(HAN.test(word) && word.length === 1))
  return (longer.length > 0 ? longer : words).slice(0, MAX_QUERY_WORDS).map((word) => ({ word, prefix: PREFIXED.test(word) }))
}

/** The FTS5 expression matching any of the words; each is a quoted string, so nothing in it is FTS syntax. */
export function anyOf(words: readonly QueryWord[]): string | null {
  if (words.length === 0) return null
  return words.map(({ word, prefix }) => `"${word.replace(/"/g, '""')}"${prefix ? '*' : ''}`).join(' OR ')
}

/**
 * The FTS5 expression for a query: every distinct word, any of them (OR), so a whole question
 * finds the memories that share its words and bm25 ranks those sharing the rarer ones first.
 * Null when nothing is left to search for. (MemoryStore also leaves out words most memories hold.)
 */
export function matchExpression(query: string): string | null {
  return anyOf(queryWords(query))
}
