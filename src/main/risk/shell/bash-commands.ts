/**
 * bash's command lists, as the second parser reads them (docs/risk.md, "A second, independent
 * parser"), written from the manual and checked against bash itself:
 * - blanks are space and tab only; CR, VT, FF and other control characters are word characters;
 * - metacharacters `| & ; ( ) < >`, space, tab and newline end a word;
 * - `\` quotes the next character; `\`-newline is removed everywhere but in single quotes,
 *   `$'…'`, comments and the bodies of quoted heredocs (`\`-CR-LF is not a continuation);
 * - `'…'`, `"…"`, `$'…'`, `$"…"`, `$(…)`, `$((…))`, `${…}`, `$[…]`, `` `…` ``, `<(…)`, `>(…)` belong
 *   to the word they are in, wherever they start (bash-words.ts);
 * - `#` starts a comment only where a word would start;
 * - reserved words (`if`, `{`, `!`, `case`, `for`, `[[`, …) only count where a command starts,
 *   and so do assignments; heredoc bodies are read after the next newline.
 */
import { attempt, blanks, control, fail, match, rawWord, real, startScan, type BashScan, type BashView, type CommandView, type LexedWord, type Span } from './bash-lexer'
import { arithmetic, heredocs, lexWord, redirect, regexWord } from './bash-words'

/** What bash will read in `text`: its simple commands, other words, comments, control characters, and where it would stop. */
export function readBashView(text: string): BashView {
  const scan = startScan(text, readList)
  readList(scan, 0, text.length, false)
  return scan.view
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/
/** Builtins whose arguments may be array assignments (`declare -a d=(1 2)`). */
const ASSIGNING_BUILTINS = new Set(['declare', 'typeset', 'local', 'export', 'readonly'])
/** Reserved words after which a command may start again. */
const LEADING_RESERVED = new Set(['!', '{', 'if', 'then', 'elif', 'else', 'do', 'while', 'until'])
/** Reserved words that close a compound command: only redirections and operators may follow. */
const CLOSING_RESERVED = new Set(['}', 'fi', 'done'])

interface CaseFrame {
  kind: 'case'
  state: 'subject' | 'in' | 'pattern' | 'body'
}

type Frame = 'paren' | 'cond' | CaseFrame

/** Where a command list's reading stands. */
interface ListState {
  readonly limit: number
  /** The list ends at an unmatched `)` (the end of `$(…)` or `<(…)`). */
  readonly closer: boolean
  /** Open `(`, `[[` and `case` constructs, innermost last. */
  readonly frames: Frame[]
  /** The simple command whose words are being read. */
  command: CommandView | null
  /** A command (or a reserved word) may start here. */
  atStart: boolean
  /** Inside the head of `for`/`select`: `name`, then `in …` until a separator. */
  header: 'name' | 'after-name' | 'list' | null
  /** After `function`: its name comes next; after the name, `()` may follow. */
  functionName: 'keyword' | 'name' | null
  /** After `=~` inside `[[ ]]`: a regular expression comes next. */
  regexNext: boolean
}

const isCase = (frame: Frame | undefined): frame is CaseFrame => frame !== undefined && typeof frame === 'object'

function endCommand(st: ListState): void {
  st.command = null
}

function separator(st: ListState): void {
  st.command = null
  st.atStart = true
  st.functionName = null
  if (st.header === 'after-name' || st.header === 'list') st.header = null
}

/**
 * A command list from `i` to `limit`. With `closer`, it ends at an unmatched `)` (the end of
 * `$(…)` or `<(…)`) and returns the offset after it.
 */
function readList(scan: BashScan, i: number, limit: number, closer: boolean): number {
  const s = scan.s
  const st: ListState = { limit, closer, frames: [], command: null, atStart: true, header: null, functionName: null, regexNext: false }
  for (;;) {
    i = blanks(scan, i, limit)
    if (i >= limit) {
      if (closer) fail(scan, i, 'a "$(" or "<(" that is never closed')
      else if (st.frames.some((f) => f === 'paren')) fail(scan, i, 'a "(" that is never closed')
      return i
    }
    const c = s[i]!
    const frame = st.frames[st.frames.length - 1]
    if (c === '#') {
      i = comment(scan, i, limit)
      continue
    }
    if (c === '\n') {
      i = heredocs(scan, i + 1, limit)
      if (frame !== 'cond') separator(st)
      continue
    }
    const afterOperator = operator(scan, st, i, frame)
    if (afterOperator >= 0) {
      i = afterOperator
      continue
    }
    if (c === '(') {
      i = openParen(scan, st, i, frame)
      continue
    }
    if (c === ')') {
      if (closer && st.frames.length === 0) return i + 1
      i = closeParen(scan, st, i, frame)
      continue
    }
    if ((c === '<' || c === '>') && s[real(scan, i + 1)] !== '(') {
      i = redirect(scan, i, limit)
      continue
    }
    i = listWord(scan, st, i, frame)
  }
}

/** A comment from `i` to the end of the line (control characters in it are noted). */
function comment(scan: BashScan, i: number, limit: number): number {
  let j = scan.s.indexOf('\n', i)
  if (j < 0 || j > limit) j = limit
  scan.view.comments.push({ start: i, end: j })
  for (let k = i; k < j; k++) control(scan, k)
  return j
}

/** `;` `;;` `&` `&&` `|` `||` `|&` (and, inside `[[ ]]`, its own operators) at `i`: the offset after it, or -1 when there is none. */
function operator(scan: BashScan, st: ListState, i: number, frame: Frame | undefined): number {
  const c = scan.s[i]!
  if (frame === 'cond' && (c === '&' || c === '|' || c === '(' || c === ')' || c === '<' || c === '>')) {
    const pair = c === '&' || c === '|' ? match(scan, i, c + c) : -1
    return pair >= 0 ? pair : i + 1
  }
  if (c === ';') {
    const op = [';;&', ';;', ';&', ';'].find((o) => match(scan, i, o) >= 0)!
    const next = match(scan, i, op)
    separator(st)
    if (op !== ';') {
      if (isCase(frame) && frame.state === 'body') frame.state = 'pattern'
      else fail(scan, i, `"${op}" outside a case statement`)
    }
    return next
  }
  if (c === '&') {
    if (match(scan, i, '&>') >= 0) return redirect(scan, i, st.limit)
    const pair = match(scan, i, '&&')
    separator(st)
    return pair >= 0 ? pair : i + 1
  }
  if (c === '|') {
    const pair = Math.max(match(scan, i, '||'), match(scan, i, '|&'))
    separator(st)
    return pair >= 0 ? pair : i + 1
  }
  return -1
}

/** `(` at `i`: a case pattern's, `((…))` arithmetic, a function definition's `()`, or a subshell. */
function openParen(scan: BashScan, st: ListState, i: number, frame: Frame | undefined): number {
  const limit = st.limit
  if (isCase(frame) && frame.state === 'pattern') return i + 1
  const twice = match(scan, i, '((')
  if ((st.atStart || st.header === 'name') && twice >= 0) {
    const after = attempt(scan, i, () => arithmetic(scan, twice, limit))
    if (after >= 0) {
      endCommand(st)
      st.atStart = false
      if (st.header === 'name') st.header = 'after-name'
      return after
    }
  }
  const current = st.command
  if ((current && current.words.length === 1) || st.functionName === 'name') {
    // `name ()` or `function name ()`: a function definition; its body is a compound command.
    if (current) scan.view.commands.splice(scan.view.commands.indexOf(current), 1)
    st.functionName = null
    i = blanks(scan, i + 1, limit)
    if (scan.s[i] !== ')') fail(scan, i, 'a function definition without ")"')
    else i++
    endCommand(st)
    st.atStart = true
    return i
  }
  if (st.atStart) {
    st.frames.push('paren')
    return i + 1
  }
  fail(scan, i, 'an unexpected "("')
  return i + 1
}

/** `)` at `i` that does not end the list: a case pattern's end, or a subshell's. */
function closeParen(scan: BashScan, st: ListState, i: number, frame: Frame | undefined): number {
  if (isCase(frame) && frame.state === 'pattern') {
    frame.state = 'body'
    separator(st)
    return i + 1
  }
  if (frame === 'paren') {
    st.frames.pop()
    endCommand(st)
    st.atStart = false
    return i + 1
  }
  fail(scan, i, 'an unexpected ")"')
  return i + 1
}

/** A word at `i`: a redirection's descriptor, part of a compound command's head, a reserved word, an assignment, a command's name or argument. */
function listWord(scan: BashScan, st: ListState, i: number, frame: Frame | undefined): number {
  const s = scan.s
  const current = st.command
  const assignable = st.atStart || (current !== null && current.name !== null && ASSIGNING_BUILTINS.has(current.name))
  const word = st.regexNext ? regexWord(scan, i, st.limit) : lexWord(scan, i, st.limit, assignable)
  st.regexNext = false
  i = word.next
  const next = s[i]
  if (word.plain !== null && (next === '<' || next === '>') && s[real(scan, i + 1)] !== '(' && (/^\d+$/.test(word.plain) || /^\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(word.plain))) {
    // `2>`, `{fd}>`: the number or name belongs to the redirection.
    return redirect(scan, i, st.limit)
  }
  const span: Span = { start: word.start, end: word.end }
  // Every word but a command's own, which is compared with its command (popped again below).
  const others = scan.view.words
  others.push(span)
  if (compoundWord(scan, st, word, frame)) return i
  st.functionName = null
  if (st.atStart && word.plain !== null && reservedWord(st, word.plain, frame)) return i
  if (st.atStart && ASSIGNMENT.test(rawWord(scan, word))) return i
  if (st.atStart) {
    others.pop()
    st.command = { words: [span], name: word.plain }
    scan.view.commands.push(st.command)
    st.atStart = false
    return i
  }
  if (current) {
    others.pop()
    current.words.push(span)
  }
  return i
}

/** A word inside `[[ ]]`, a case statement's head or pattern, a `for` head, or after `function`: true when it was one. */
function compoundWord(scan: BashScan, st: ListState, word: LexedWord, frame: Frame | undefined): boolean {
  const plain = word.plain
  if (frame === 'cond') {
    if (plain === ']]') {
      st.frames.pop()
      st.atStart = false
    } else if (plain === '=~') st.regexNext = true
    return true
  }
  if (isCase(frame) && frame.state !== 'body') {
    if (frame.state === 'subject') frame.state = 'in'
    else if (frame.state === 'in') {
      if (plain !== 'in') fail(scan, word.start, 'a case statement without "in"')
      frame.state = 'pattern'
    } else if (plain === 'esac') {
      st.frames.pop()
      endCommand(st)
      st.atStart = false
    }
    return true
  }
  if (st.header === 'name') {
    st.header = 'after-name'
    return true
  }
  if (st.header === 'after-name') {
    if (plain === 'in') st.header = 'list'
    else if (plain === 'do') {
      st.header = null
      st.atStart = true
    } else fail(scan, word.start, 'an unexpected word after "for NAME"')
    return true
  }
  if (st.header === 'list') return true
  if (st.functionName === 'keyword') {
    // `function name`: the name is not a command; `()` may follow, then the body.
    st.functionName = 'name'
    st.atStart = true
    return true
  }
  return false
}

/** A reserved word where a command may start: true when `plain` was one (and what it opens or closes is noted). */
function reservedWord(st: ListState, plain: string, frame: Frame | undefined): boolean {
  if (LEADING_RESERVED.has(plain)) return true
  if (CLOSING_RESERVED.has(plain) || (plain === 'esac' && isCase(frame))) {
    if (plain === 'esac' && isCase(frame)) st.frames.pop()
    endCommand(st)
    st.atStart = false
    return true
  }
  if (plain === '[[') st.frames.push('cond')
  else if (plain === 'case') st.frames.push({ kind: 'case', state: 'subject' })
  else if (plain === 'for' || plain === 'select') st.header = 'name'
  else if (plain === 'function') st.functionName = 'keyword'
  else return false
  st.atStart = false
  return true
}
