/**
 * The second parser's state and its character-level steps (docs/risk.md, "A second, independent
 * parser"): what bash will read (bash-commands.ts reads command lists, bash-words.ts words), with
 * every offset into the text as given — `\`-newline is skipped where bash removes it, never
 * pre-joined.
 */

export interface Span {
  start: number
  end: number
}

/** A simple command: its name and arguments (not its assignments or redirections). */
export interface CommandView {
  words: Span[]
  /** The name as written, when it is a plain word (no quotes, escapes or expansions). */
  name: string | null
}

/** What bash will read: every offset is into the text as given. */
export interface BashView {
  commands: CommandView[]
  /** The words that are not a command's (those are in `commands`): assignments, redirection targets, words of compound commands. */
  words: Span[]
  comments: Span[]
  /** Offsets of control characters outside quotes. */
  controls: number[]
  /** Where bash would stop with an unterminated quote, substitution or a syntax error. */
  incomplete: { at: number; what: string } | null
}

/** A word as the lexer read it. */
export interface LexedWord {
  start: number
  end: number
  /** The word as written, when it has no quotes, escapes or expansions. */
  plain: string | null
  next: number
}

export interface Heredoc {
  delimiter: string
  quoted: boolean
  stripTabs: boolean
}

/** One reading of a text: what was found so far, and what the reading still carries. */
export interface BashScan {
  readonly s: string
  readonly view: BashView
  /** Heredocs opened on the current line: their bodies start after its newline. */
  pending: Heredoc[]
  /** How deep in substitutions the reading is. */
  depth: number
  /** How far the last `((` attempt read. */
  scanned: number
  /** Characters read by `((` attempts that turned out not to be arithmetic: bounded, so reading stays linear. */
  retries: number
  /** Reads a command list from `i` (bash-commands.ts); with `closer`, up to an unmatched `)`, returning the offset after it. */
  readonly list: (i: number, limit: number, closer: boolean) => number
}

/** Substitutions nested deeper than this are not read: the command asks (no real command comes close). */
const MAX_NESTING = 100

export function startScan(s: string, list: (scan: BashScan, i: number, limit: number, closer: boolean) => number): BashScan {
  const scan: BashScan = {
    s,
    view: { commands: [], words: [], comments: [], controls: [], incomplete: null },
    pending: [],
    depth: 0,
    scanned: 0,
    retries: 4 * s.length + 1024,
    list: (i, limit, closer) => list(scan, i, limit, closer)
  }
  return scan
}

export const isControl = (code: number): boolean => (code < 0x20 && code !== 0x09 && code !== 0x0a) || code === 0x7f

/** Reads a nested construct with `read`, unless it is nested too deep. */
export function nested(scan: BashScan, at: number, limit: number, read: () => number): number {
  if (scan.depth >= MAX_NESTING) {
    fail(scan, at, 'substitutions nested too deep to read')
    return limit
  }
  scan.depth++
  try {
    return read()
  } finally {
    scan.depth--
  }
}

export function fail(scan: BashScan, at: number, what: string): void {
  scan.view.incomplete ??= { at: Math.min(at, Math.max(0, scan.s.length - 1)), what }
}

export function control(scan: BashScan, at: number): void {
  if (isControl(scan.s.charCodeAt(at))) scan.view.controls.push(at)
}

export function isContinuation(scan: BashScan, i: number): boolean {
  return scan.s[i] === '\\' && scan.s[i + 1] === '\n'
}

/** The first offset at or after `i` that is not a `\`-newline (bash removes those before it reads tokens). */
export function real(scan: BashScan, i: number): number {
  while (isContinuation(scan, i)) i += 2
  return i
}

/** `token` at `i`, with any `\`-newline between its characters: the offset after it, or -1. */
export function match(scan: BashScan, i: number, token: string): number {
  for (let k = 0; k < token.length; k++) {
    i = real(scan, i)
    if (scan.s[i] !== token[k]) return -1
    i++
  }
  return i
}

export function blanks(scan: BashScan, i: number, limit: number): number {
  while (i < limit) {
    const c = scan.s[i]
    if (c === ' ' || c === '\t') i++
    else if (isContinuation(scan, i) && i + 1 < limit) i += 2
    else break
  }
  return i
}

/**
 * Reads `fn` but forgets everything it recorded when it returns -1 (an attempt that failed,
 * like `$((` that turns out to be `$( (`).
 */
export function attempt(scan: BashScan, from: number, fn: () => number): number {
  if (scan.retries <= 0) {
    fail(scan, from, 'too many "((" that are not arithmetic')
    return -1
  }
  const v = scan.view
  const mark = [v.commands.length, v.words.length, v.comments.length, v.controls.length, scan.pending.length] as const
  const incomplete = v.incomplete
  const result = fn()
  if (result < 0) {
    scan.retries -= scan.scanned - from
    v.commands.length = mark[0]
    v.words.length = mark[1]
    v.comments.length = mark[2]
    v.controls.length = mark[3]
    scan.pending.length = mark[4]
    v.incomplete = incomplete
  }
  return result
}

/** The word's text with `\`-newline removed. */
export function rawWord(scan: BashScan, word: LexedWord): string {
  const text = scan.s.slice(word.start, word.end)
  return text.includes('\\\n') ? text.replace(/\\\n/g, '') : text
}
