/**
 * The values provenance follows (docs/risk.md, "Provenance"): pieces of text of at least 8
 * characters — whole lines, and words that look like data rather than prose (with a digit or a
 * symbol, or long) — normalised (lower case, runs of white space as one space) and kept only as
 * hashes. An argument is cut the same ways, and also at the separators of URLs and forms, after
 * undoing percent-encoding, so a line sent in a query string is still found.
 */
import { createHash } from 'node:crypto'

export const MIN_VALUE_LENGTH = 8
/** Pieces taken from one text at most: a huge output is followed by its first pieces only. */
export const MAX_PIECES_PER_TEXT = 4_000
/** Longer lines are followed by their words only. */
const MAX_LINE_LENGTH = 2_000

const WORD_SPLIT = /[\s"'`<>()[\]{}|,;]+/
const FIELD_SPLIT = /[?&=#:/\\]+/
/** The fields of a query string or form (`a=1&b=two words`), where a value may hold `:` or `/`. */
const QUERY_SPLIT = /[?&=#]+/
/** Words of an output also cut at assignments (`API_KEY=…`, `token: …`), so the value alone is found. */
const VALUE_SPLIT = /[\s"'`<>()[\]{}|,;=:&?#]+/

/** A piece of a text: its normalised form and where it is in the text (for highlighting). */
export interface Piece {
  normal: string
  start: number
  end: number
}

export const normalise = (text: string): string => text.toLowerCase().replace(/\s+/g, ' ').trim()

export const hashValue = (normal: string): string => createHash('sha256').update(normal).digest('base64url').slice(0, 22)

/** A word worth following: long enough, and data-like (a digit or symbol) or long enough not to be a common word. */
function isDataWord(word: string): boolean {
  if (word.length < MIN_VALUE_LENGTH) return false
  return /[0-9_\-.@+/=$%]/.test(word) || word.length >= 16
}

/** What tools put before a line of a file: a line number (file_read: `12\t`), a grep location (`a.txt:12:`). */
const LINE_PREFIX = /^(\s*\d+(\t|: |\| | {2,})|[^\s:]+:\d+[:-])/

function* linesOf(text: string): Generator<Piece> {
  let start = 0
  for (const line of text.split('\n')) {
    const trimmed = line.trim()
    if (trimmed.length >= MIN_VALUE_LENGTH && trimmed.length <= MAX_LINE_LENGTH) {
      const at = start + line.indexOf(trimmed)
      yield { normal: normalise(trimmed), start: at, end: at + trimmed.length }
      // The line as the file holds it, without the number or location the tool put before it.
      const bare = trimmed.replace(LINE_PREFIX, '').trim()
      if (bare !== trimmed && bare.length >= MIN_VALUE_LENGTH) {
        const from = at + trimmed.indexOf(bare)
        yield { normal: normalise(bare), start: from, end: from + bare.length }
      }
    }
    start += line.length + 1
  }
}

function* splitBy(text: string, pattern: RegExp, keep: (part: string) => boolean): Generator<Piece> {
  const global = new RegExp(pattern.source, 'g')
  let start = 0
  for (const match of text.matchAll(global)) {
    const part = text.slice(start, match.index)
    if (keep(part)) yield { normal: normalise(part), start, end: match.index }
    start = match.index + match[0].length
  }
  const last = text.slice(start)
  if (keep(last)) yield { normal: normalise(last), start, end: text.length }
}

/** The pieces of a tool's output that are followed: its lines and its data-like words. */
export function outputPieces(text: string): Piece[] {
  const pieces: Piece[] = []
  const seen = new Set<string>()
  const add = (piece: Piece) => {
    if (pieces.length >= MAX_PIECES_PER_TEXT || seen.has(piece.normal)) return
    seen.add(piece.normal)
    pieces.push(piece)
  }
  for (const line of linesOf(text)) add(line)
  for (const word of splitBy(text, WORD_SPLIT, isDataWord)) add(word)
  for (const word of splitBy(text, VALUE_SPLIT, isDataWord)) add(word)
  return pieces
}

function decoded(text: string): string | null {
  if (!/%[0-9a-f]{2}|\+/i.test(text)) return null
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return null
  }
}

/**
 * The pieces of one argument that are looked up: its lines, words and the fields between URL and
 * form separators — of the text as given (with positions) and of its percent-decoded form (without:
 * those point at the whole argument).
 */
export function argumentPieces(text: string): Piece[] {
  const pieces: Piece[] = []
  const fromText = (source: string, positioned: boolean) => {
    const at = (piece: Piece): Piece => (positioned ? piece : { normal: piece.normal, start: 0, end: text.length })
    for (const line of linesOf(source)) pieces.push(at(line))
    for (const word of splitBy(source, WORD_SPLIT, (part) => part.length >= MIN_VALUE_LENGTH)) pieces.push(at(word))
    for (const split of [QUERY_SPLIT, FIELD_SPLIT]) {
      for (const field of splitBy(source, split, (part) => part.trim().length >= MIN_VALUE_LENGTH)) pieces.push(at(field))
    }
  }
  fromText(text, true)
  const plain = decoded(text)
  if (plain !== null && plain !== text) fromText(plain, false)
  return pieces.slice(0, MAX_PIECES_PER_TEXT)
}
