/**
 * bash's words, as the second parser reads them (docs/risk.md, "A second, independent parser"):
 * `\` quotes the next character; `'…'`, `"…"`, `$'…'`, `$"…"`, `$(…)`, `$((…))`, `${…}`, `$[…]`,
 * `` `…` ``, `<(…)`, `>(…)` belong to the word they are in, wherever they start; metacharacters
 * end a word. Also redirections with their target, and heredoc bodies.
 */
import { attempt, blanks, control, fail, match, nested, rawWord, real, type BashScan, type LexedWord } from './bash-lexer'

export const METACHARS = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>'])
const ASSIGNMENT_OPEN = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=$/
const REDIRECTS = ['<<<', '<<-', '&>>', '<<', '<&', '<>', '>>', '>&', '>|', '&>', '<', '>']

/** Printable ASCII characters that are only ever part of a word (no quote, escape, `$`, metacharacter). */
const WORD_CHARS = new Uint8Array(128)
for (let code = 0x21; code < 0x7f; code++) WORD_CHARS[code] = 1
for (const c of '\\\'"$`<>();&|') WORD_CHARS[c.charCodeAt(0)] = 0

/** One word from `i`. `assignment`: a command may start here, so `name=(…)` is one word. */
export function lexWord(scan: BashScan, i: number, limit: number, assignment: boolean): LexedWord {
  const s = scan.s
  const start = i
  let end = i
  let plain = true
  while (i < limit) {
    const code = s.charCodeAt(i)
    if (code < 128 && WORD_CHARS[code] === 1) {
      i++
      end = i
      continue
    }
    const c = s[i]!
    if (c === '\\') {
      if (s[i + 1] === '\n' && i + 1 < limit) {
        i += 2
        continue
      }
      plain = false
      if (i + 1 < limit) control(scan, i + 1)
      i = Math.min(i + 2, limit)
      end = i
      continue
    }
    if (c === "'") {
      plain = false
      const j = s.indexOf("'", i + 1)
      if (j < 0 || j >= limit) {
        fail(scan, i, 'a single quote that is never closed')
        i = end = limit
        break
      }
      i = end = j + 1
      continue
    }
    if (c === '"') {
      plain = false
      i = end = expandable(scan, i + 1, limit, '"')
      continue
    }
    if (c === '$') {
      plain = false
      i = end = dollar(scan, i, limit)
      continue
    }
    if (c === '`') {
      plain = false
      i = end = backtick(scan, i, limit)
      continue
    }
    const substitution = c === '<' || c === '>' ? match(scan, i, c + '(') : -1
    if (substitution >= 0) {
      plain = false
      i = end = nested(scan, i, limit, () => scan.list(substitution, limit, true))
      continue
    }
    if (c === '(' && assignment && ASSIGNMENT_OPEN.test(s.slice(start, i).replace(/\\\n/g, ''))) {
      plain = false
      const open = i
      i = end = nested(scan, i, limit, () => balanced(scan, open + 1, limit, '(', ')'))
      continue
    }
    if (METACHARS.has(c)) break
    control(scan, i)
    i++
    end = i
  }
  const text = plain ? s.slice(start, end) : null
  return { start, end, plain: text !== null && text.includes('\\\n') ? text.replace(/\\\n/g, '') : text, next: i }
}

/** The right-hand side of `=~` inside `[[ ]]`: parentheses and `|` belong to the word. */
export function regexWord(scan: BashScan, i: number, limit: number): LexedWord {
  const s = scan.s
  const start = i
  let depth = 0
  while (i < limit) {
    const c = s[i]!
    if (c === '\\') i += 2
    else if (c === "'" || c === '"' || c === '$' || c === '`') i = lexWord(scan, i, limit, false).next
    else if (c === '(') {
      depth++
      i++
    } else if (c === ')' && depth > 0) {
      depth--
      i++
    } else if (depth === 0 && (c === ' ' || c === '\t' || c === '\n' || c === ')' || c === ';' || (c === '&' && match(scan, i, '&&') >= 0))) break
    else i++
  }
  i = Math.min(i, limit)
  return { start, end: i, plain: null, next: i }
}

/** A redirection operator at `i` (after any fd), then its target word. */
export function redirect(scan: BashScan, i: number, limit: number): number {
  const s = scan.s
  const op = REDIRECTS.find((r) => match(scan, i, r) >= 0)!
  const after = match(scan, i, op)
  // `<&-`, `>&-` close a descriptor: bash reads `-` as the word, tree-sitter as part of the operator; the same meaning.
  if ((op === '<&' || op === '>&') && s[after] === '-' && (after + 1 >= limit || METACHARS.has(s[after + 1]!))) return after + 1
  i = blanks(scan, after, limit)
  if (i >= limit || METACHARS.has(s[i]!)) {
    fail(scan, i, `a "${op}" without a target`)
    return i
  }
  const target = lexWord(scan, i, limit, false)
  scan.view.words.push({ start: target.start, end: target.end })
  if (op === '<<' || op === '<<-') {
    const raw = rawWord(scan, target)
    scan.pending.push({ delimiter: raw.replace(/\\(.)|['"]/gs, '$1'), quoted: /['"\\]/.test(raw), stripTabs: op === '<<-' })
  }
  return target.next
}

/** The bodies of the heredocs opened on the line that ended at `i`; returns the offset after them. */
export function heredocs(scan: BashScan, i: number, limit: number): number {
  const s = scan.s
  const docs = scan.pending
  scan.pending = []
  for (const doc of docs) {
    const bodyStart = i
    let bodyEnd = limit
    while (i < limit) {
      let j = i
      if (doc.quoted) {
        j = s.indexOf('\n', i)
        if (j < 0 || j > limit) j = limit
      } else {
        while (j < limit && s[j] !== '\n') j += s[j] === '\\' ? 2 : 1
        j = Math.min(j, limit)
      }
      let line = s.slice(i, j)
      if (!doc.quoted) line = line.replace(/\\\n/g, '')
      if (doc.stripTabs) line = line.replace(/^\t+/, '')
      if (line === doc.delimiter) {
        bodyEnd = i
        i = Math.min(j + 1, limit)
        break
      }
      i = j + 1
    }
    if (i >= limit && bodyEnd === limit) i = limit
    // An unquoted body is expanded: its substitutions run.
    if (!doc.quoted) expandable(scan, bodyStart, Math.min(bodyEnd, limit), null)
  }
  return i
}

/** `$` at `i`: `$'…'`, `$"…"`, `$(…)`, `$((…))`, `${…}`, `$[…]` or a plain `$`. */
function dollar(scan: BashScan, i: number, limit: number, quoted = false): number {
  return nested(scan, i, limit, () => dollarBody(scan, i, limit, quoted))
}

function dollarBody(scan: BashScan, i: number, limit: number, quoted: boolean): number {
  const s = scan.s
  const k = real(scan, i + 1)
  const n = s[k]
  // Inside "…" and heredoc bodies, $'…' and $"…" are not quotes: the `$` is a plain character.
  if (quoted && (n === "'" || n === '"')) return i + 1
  if (n === "'") {
    let j = k + 1
    while (j < limit && s[j] !== "'") j += s[j] === '\\' ? 2 : 1
    if (j >= limit) {
      fail(scan, i, "a $'…' string that is never closed")
      return limit
    }
    return j + 1
  }
  if (n === '"') return expandable(scan, k + 1, limit, '"')
  if (n === '(') {
    const twice = match(scan, k, '((')
    if (twice >= 0) {
      const after = attempt(scan, i, () => arithmetic(scan, twice, limit))
      if (after >= 0) return after
    }
    return scan.list(k + 1, limit, true)
  }
  if (n === '{') return balanced(scan, k + 1, limit, '{', '}')
  if (n === '[') return balanced(scan, k + 1, limit, '[', ']')
  return i + 1
}

/** The body of `((…))` from after `((`: the offset after `))`, or -1 when it is not arithmetic. */
export function arithmetic(scan: BashScan, i: number, limit: number): number {
  const s = scan.s
  let depth = 0
  scan.scanned = i
  while (i < limit) {
    scan.scanned = i
    const c = s[i]!
    if (c === '(') depth++
    else if (c === ')') {
      if (depth === 0) return match(scan, i + 1, ')')
      depth--
    } else if (c === '\\') {
      i += 2
      continue
    } else if (c === "'" || c === '"' || c === '$' || c === '`') {
      const before = scan.view.incomplete
      i = lexWord(scan, i, limit, false).next
      if (scan.view.incomplete !== before) return -1
      continue
    }
    i++
  }
  return -1
}

/** Up to the matching `close` (`${…}`, `$[…]`, `name=(…)`), with quotes and substitutions inside. */
function balanced(scan: BashScan, i: number, limit: number, open: string, close: string): number {
  const s = scan.s
  const from = i - 1
  let depth = 1
  while (i < limit) {
    const c = s[i]!
    if (c === '\\') i += 2
    else if (c === "'") {
      const j = s.indexOf("'", i + 1)
      i = j < 0 || j >= limit ? limit : j + 1
    } else if (c === '"') i = expandable(scan, i + 1, limit, '"')
    else if (c === '$') i = dollar(scan, i, limit)
    else if (c === '`') i = backtick(scan, i, limit)
    else if (c === open) {
      depth++
      i++
    } else if (c === close) {
      if (--depth === 0) return i + 1
      i++
    } else i++
  }
  fail(scan, from, `a "${open}" that is never closed`)
  return limit
}

/**
 * Text where only `$`, `` ` `` and `\` are special: the inside of `"…"` (ends at `quote`) or an
 * unquoted heredoc body (`quote` null: up to `limit`). Control characters here are data.
 */
function expandable(scan: BashScan, i: number, limit: number, quote: '"' | null): number {
  const s = scan.s
  const from = i - 1
  while (i < limit) {
    const c = s[i]!
    if (c === quote) return i + 1
    if (c === '\\') i += 2
    else if (c === '$') i = dollar(scan, i, limit, true)
    else if (c === '`') i = backtick(scan, i, limit)
    else i++
  }
  if (quote) fail(scan, from, 'a double quote that is never closed')
  return limit
}

/** `` `…` ``: the command list up to the first unescaped backquote. */
function backtick(scan: BashScan, i: number, limit: number): number {
  return nested(scan, i, limit, () => backtickBody(scan, i, limit))
}

function backtickBody(scan: BashScan, i: number, limit: number): number {
  const s = scan.s
  let j = i + 1
  while (j < limit && s[j] !== '`') j += s[j] === '\\' ? 2 : 1
  if (j >= limit) {
    fail(scan, i, 'a backquote that is never closed')
    return limit
  }
  const pending = scan.pending
  scan.pending = []
  scan.list(i + 1, j, false)
  scan.pending = pending
  return j + 1
}
