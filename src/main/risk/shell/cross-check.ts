/**
 * The second parser (docs/risk.md, "A second, independent parser"). tree-sitter-bash is not bash:
 * where the two disagree on where a command, a word or a comment begins, text the engine took
 * for a comment or for data runs (`echo a\<TAB>#;rm -rf ~`: tree-sitter reads a comment after the
 * tab, bash reads the word `a<TAB>#` and then runs `rm`). So every command is also read by a small
 * tokenizer written from bash's own token rules (POSIX "Token Recognition" plus bash's additions),
 * which shares no code with tree-sitter, the pre-pass or the analyzer, and reads the text exactly
 * as bash gets it — before the backslash-newline pre-pass, so a wrong splice shows up too. Where the
 * two views differ the command asks (fail closed):
 *
 * - `shell.parser-disagreement`: the simple commands (where each starts, which words it has) or
 *   the words (their exact spans) differ, or bash would find a quote or substitution that never ends.
 * - `shell.comment-boundary`: a `#` that one parser reads as the start of a comment and the other
 *   does not, or a comment that does not start a word.
 * - `shell.control-char`: a control character (U+0000–U+001F but tab and newline, U+007F) outside
 *   quotes. bash reads CR, VT and FF as word characters, not as blanks; inside quotes they are data.
 *
 * The comparison is deliberately coarse where it can afford to be: it compares spans, not values,
 * and the inside of `$(…)`, `${…}` and heredocs only as far as their commands go, because anything
 * there already asks. Only the views of the text that could be allowed must agree exactly.
 */
import type { Language } from 'web-tree-sitter'
import { loadBashParser, type SyntaxNode } from './parser'
import { originalRange, prepareSource, type PreparedSource } from './source'

export interface CrossCheckFinding {
  rule: 'shell.parser-disagreement' | 'shell.comment-boundary' | 'shell.control-char'
  message: string
  verdict: 'ask'
  /** Offsets into the original command text (before the pre-pass). */
  start: number
  end: number
}

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

/** What tree-sitter read, mapped back to offsets of the original text. */
export interface TreeSitterView {
  hasError: boolean
  /** Each `command` node's name and arguments. */
  commands: Span[][]
  comments: Span[]
}

const MAX_FINDINGS_PER_RULE = 3

/**
 * Compares bash's view of `original` with tree-sitter's tree of the prepared text (`source`).
 * Findings point into `original`.
 */
export function crossCheck(original: string, source: PreparedSource, root: SyntaxNode, options: { exhaustive?: boolean } = {}): CrossCheckFinding[] {
  const findings: CrossCheckFinding[] = []
  const counts = new Map<string, number>()
  const add = (rule: CrossCheckFinding['rule'], message: string, start: number, end: number) => {
    const count = counts.get(rule) ?? 0
    if (count >= MAX_FINDINGS_PER_RULE) return
    counts.set(rule, count + 1)
    findings.push({ rule, message, verdict: 'ask', start, end: Math.max(start, end) })
  }
  // Plain words, simple quotes and list operators read the same in any shell grammar: nothing to
  // compare (the tests compare them anyway, with `exhaustive`). Most commands are plain.
  if (!options.exhaustive && isPlainCommand(original)) return findings
  const bash = readBashView(original)
  for (const at of bash.controls) {
    add('shell.control-char', `${controlName(original.charCodeAt(at))} outside quotes: bash reads it as part of a word, not as a space, so what runs may not be what is shown.`, at, at + 1)
  }
  // A tree with errors already asks (shell.parse-error); comparing a broken tree is only noise.
  if (root.hasError) return findings
  if (bash.incomplete) {
    add('shell.parser-disagreement', `bash would stop here (${bash.incomplete.what}) where tree-sitter read on, so the two disagree on what runs.`, bash.incomplete.at, bash.incomplete.at + 1)
    return findings
  }
  const ts = readTreeSitterView(source, root)
  const show = (span: Span) => JSON.stringify(original.slice(span.start, Math.min(span.end, span.start + 40)))

  const bashComments = new Set(bash.comments.map((c) => c.start))
  const tsComments = new Set(ts.comments.map((c) => c.start))
  for (const c of ts.comments) {
    if (!bashComments.has(c.start)) {
      add('shell.comment-boundary', 'tree-sitter reads a comment from this "#", but bash does not: the text after it runs.', c.start, c.end)
    } else if (!startsWord(original, c.start)) {
      add('shell.comment-boundary', 'This comment does not start at a word boundary.', c.start, c.end)
    }
  }
  for (const c of bash.comments) {
    if (!tsComments.has(c.start)) add('shell.comment-boundary', 'bash reads a comment from this "#", but tree-sitter does not.', c.start, c.end)
  }

  // Commands first: "bash runs rm here" says more than "the words differ".
  const before = findings.length
  const bashCommands = new Map(bash.commands.map((c) => [c.words[0]!.start, c]))
  const tsCommands = new Map(ts.commands.filter((c) => c.length > 0).map((c) => [c[0]!.start, c]))
  for (const [start, words] of tsCommands) {
    const other = bashCommands.get(start)
    const end = words[words.length - 1]!.end
    if (!other) add('shell.parser-disagreement', `tree-sitter sees a command here that bash does not run as one: ${show({ start, end })}.`, start, end)
    else if (!sameSpans(words, other.words)) add('shell.parser-disagreement', `The two parsers split this command into different words: ${show({ start, end })}.`, start, end)
  }
  for (const [start, command] of bashCommands) {
    if (tsCommands.has(start) || (command.name !== null && DECLARATIONS.has(command.name))) continue
    const end = command.words[command.words.length - 1]!.end
    add('shell.parser-disagreement', `bash runs a command here that tree-sitter does not see: ${show({ start, end })}.`, start, end)
  }
  if (findings.length > before) return findings

  // The same commands; the other words (assignments, redirection targets, words of compound
  // commands) must be words, or at least nodes, of tree-sitter's too.
  for (const w of bash.words) {
    if (!isNode(source, root, w)) add('shell.parser-disagreement', `bash reads the word ${show(w)} here; tree-sitter splits the text differently.`, w.start, w.end)
  }
  return findings
}

/** Parses `command` itself (pre-pass + tree-sitter) and cross-checks it: for callers without a tree. */
export async function loadCrossCheck(options: { exhaustive?: boolean } = {}): Promise<(command: string) => CrossCheckFinding[]> {
  const parser = await loadBashParser()
  return (command) => {
    const source = prepareSource(command)
    const tree = parser.parse(source.text)
    if (!tree) return [{ rule: 'shell.parser-disagreement', message: 'tree-sitter could not parse the command.', verdict: 'ask', start: 0, end: command.length }]
    try {
      return crossCheck(command, source, tree.rootNode, options)
    } finally {
      tree.delete()
    }
  }
}

/**
 * Whether `text` is plain: words of letters, digits and `_./,:=+@%~^*?-`, single-quoted strings
 * and double-quoted ones without `$`, `` ` `` or `\\`, separated by spaces and `;`, `&`, `|`, `&&`,
 * `||`, `|&`, every command named by an ordinary word that is not a reserved word. Both parsers
 * read such text alike (the fuzz test checks it); anything else — `=` or a lone `-` in a program's
 * name, which tree-sitter takes for an assignment, included — is compared.
 */
export function isPlainCommand(text: string): boolean {
  const n = text.length
  /** A command's name comes next. */
  let atStart = true
  /** The text may not end here: nothing yet, or after `|`, `&&`, `||`. */
  let open = true
  let i = 0
  while (i < n) {
    const code = text.charCodeAt(i)
    if (code === 0x20) {
      i++
      continue
    }
    if (code === 0x3b || code === 0x26 || code === 0x7c) {
      // `;` `&` `|`: an operator must follow a command; `;;` and `;&` belong to case statements.
      const next = text.charCodeAt(i + 1)
      if (atStart || (code === 0x3b && (next === 0x3b || next === 0x26))) return false
      const pair = (code === 0x26 && next === 0x26) || (code === 0x7c && (next === 0x7c || next === 0x26))
      open = code === 0x7c || pair
      i += pair ? 2 : 1
      atStart = true
      continue
    }
    const start = i
    let quoted = false
    while (i < n) {
      const c = text.charCodeAt(i)
      if (c < 128 && PLAIN_CHARS[c] === 1) i++
      else if (c === 0x27) {
        const close = text.indexOf("'", i + 1)
        if (close < 0) return false
        i = close + 1
        quoted = true
      } else if (c === 0x22) {
        let j = i + 1
        for (; j < n; j++) {
          const d = text.charCodeAt(j)
          if (d === 0x22) break
          if (d === 0x24 || d === 0x60 || d === 0x5c) return false
        }
        if (j >= n) return false
        i = j + 1
        quoted = true
      } else if (c === 0x20 || c === 0x3b || c === 0x26 || c === 0x7c) break
      else return false
    }
    if (atStart) {
      const name = text.slice(start, i)
      if (quoted || !PLAIN_NAME.test(name) || RESERVED.has(name)) return false
      atStart = false
    }
    open = false
  }
  return !open
}

/** What a plain word is made of, besides quotes: letters, digits and `_./,:=+@%~^*?-`. */
const PLAIN_CHARS = new Uint8Array(128)
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:=+@%~^*?-') PLAIN_CHARS[c.charCodeAt(0)] = 1
const PLAIN_NAME = /^[A-Za-z0-9_./][A-Za-z0-9_./,:+@%^-]*$/
const RESERVED = new Set(['!', '{', '}', 'if', 'then', 'elif', 'else', 'fi', 'do', 'done', 'while', 'until', 'case', 'esac', 'for', 'select', 'function', 'in', '[[', ']]'])

/** Whether tree-sitter has a node spanning exactly `span` (of the original text). */
function isNode(source: PreparedSource, root: SyntaxNode, span: Span): boolean {
  let start = span.start
  let end = span.end
  if (source.spliced) {
    start = preparedIndex(source, span.start)
    end = preparedIndex(source, span.end - 1) + 1
    if (start < 0 || end <= 0) return false
  }
  const node = root.descendantForIndex(start, end)
  return node !== null && node.startIndex === start && node.endIndex === end
}

/** The offset in the prepared text of the original text's offset `at`, or -1 if the pre-pass removed it. */
function preparedIndex(source: PreparedSource, at: number): number {
  const offsets = source.offsets
  let lo = 0
  let hi = offsets.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const value = offsets[mid]!
    if (value === at) return mid
    if (value < at) lo = mid + 1
    else hi = mid - 1
  }
  return -1
}

/** Builtins tree-sitter reads as their own constructs (declaration_command, unset_command, test_command), not as commands. */
const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'local', 'readonly', 'unset', '['])

function sameSpans(a: Span[], b: Span[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i]!.start !== b[i]!.start || a[i]!.end !== b[i]!.end) return false
  return true
}

/** bash starts a comment only where a word could start: after a blank, an operator or a newline, unescaped. */
function startsWord(text: string, at: number): boolean {
  let i = at
  // bash removed any `\`-newline before it read the `#`: look past them.
  while (i >= 2 && text[i - 1] === '\n' && text[i - 2] === '\\' && backslashesBefore(text, i - 2) % 2 === 0) i -= 2
  if (i === 0) return true
  return ' \t\n;&|()<>'.includes(text[i - 1]!) && backslashesBefore(text, i - 1) % 2 === 0
}

/** How many backslashes end right before `i`. */
function backslashesBefore(text: string, i: number): number {
  let n = 0
  while (i - n - 1 >= 0 && text[i - n - 1] === '\\') n++
  return n
}

const CONTROL_NAMES: Record<number, string> = {
  0x00: 'A NUL byte',
  0x08: 'A backspace',
  0x0b: 'A vertical tab',
  0x0c: 'A form feed',
  0x0d: 'A carriage return',
  0x1b: 'An escape character',
  0x7f: 'A DEL character'
}

function controlName(code: number): string {
  return CONTROL_NAMES[code] ?? `The control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`
}

const isControl = (code: number): boolean => (code < 0x20 && code !== 0x09 && code !== 0x0a) || code === 0x7f

// ───────────────────────────── tree-sitter's view ─────────────────────────────

interface NodeIds {
  command: number
  comment: number
  name: number
  argument: number
}

const idsByLanguage = new WeakMap<Language, NodeIds>()

function nodeIds(language: Language): NodeIds {
  let ids = idsByLanguage.get(language)
  if (!ids) {
    ids = {
      command: language.idForNodeType('command', true) ?? -1,
      comment: language.idForNodeType('comment', true) ?? -1,
      name: language.fieldIdForName('name') ?? -1,
      argument: language.fieldIdForName('argument') ?? -1
    }
    idsByLanguage.set(language, ids)
  }
  return ids
}

/** One walk over the tree: each command's name and arguments, and the comments. */
export function readTreeSitterView(source: PreparedSource, root: SyntaxNode): TreeSitterView {
  const ids = nodeIds(root.tree.language)
  const view: TreeSitterView = { hasError: root.hasError, commands: [], comments: [] }
  const span = (start: number, end: number): Span => (source.spliced ? originalRange(source, start, end) : { start, end })
  const cursor = root.walk()
  // For each ancestor of the cursor's node: the words being collected when it is a command, else null.
  const open: Array<Span[] | null> = []
  try {
    for (;;) {
      const type = cursor.nodeTypeId
      const words = open.length > 0 ? open[open.length - 1]! : null
      if (words) {
        const field = cursor.currentFieldId
        if (field === ids.name || field === ids.argument) words.push(span(cursor.startIndex, cursor.endIndex))
      }
      if (type === ids.comment) view.comments.push(span(cursor.startIndex, cursor.endIndex))
      let collecting: Span[] | null = null
      if (type === ids.command) {
        collecting = []
        view.commands.push(collecting)
      }
      if (cursor.gotoFirstChild()) {
        open.push(collecting)
        continue
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return view
        open.pop()
      }
    }
  } finally {
    cursor.delete()
  }
}

// ───────────────────────────── bash's view ─────────────────────────────

/**
 * bash's token rules, written from the manual and checked against bash itself:
 * - blanks are space and tab only; CR, VT, FF and other control characters are word characters;
 * - metacharacters `| & ; ( ) < >`, space, tab and newline end a word;
 * - `\` quotes the next character; `\`-newline is removed everywhere but in single quotes,
 *   `$'…'`, comments and the bodies of quoted heredocs (`\`-CR-LF is not a continuation);
 * - `'…'`, `"…"`, `$'…'`, `$"…"`, `$(…)`, `$((…))`, `${…}`, `$[…]`, `` `…` ``, `<(…)`, `>(…)` belong
 *   to the word they are in, wherever they start;
 * - `#` starts a comment only where a word would start;
 * - reserved words (`if`, `{`, `!`, `case`, `for`, `[[`, …) only count where a command starts,
 *   and so do assignments; heredoc bodies are read after the next newline.
 */
export function readBashView(text: string): BashView {
  const lexer = new BashLexer(text)
  lexer.run()
  return lexer.view
}

const METACHARS = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>'])
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/
const ASSIGNMENT_OPEN = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=$/
const REDIRECTS = ['<<<', '<<-', '&>>', '<<', '<&', '<>', '>>', '>&', '>|', '&>', '<', '>']
/** Builtins whose arguments may be array assignments (`declare -a d=(1 2)`). */
const ASSIGNING_BUILTINS = new Set(['declare', 'typeset', 'local', 'export', 'readonly'])
/** Reserved words after which a command may start again. */
const LEADING_RESERVED = new Set(['!', '{', 'if', 'then', 'elif', 'else', 'do', 'while', 'until'])
/** Reserved words that close a compound command: only redirections and operators may follow. */
const CLOSING_RESERVED = new Set(['}', 'fi', 'done'])

interface Word {
  start: number
  end: number
  /** The word as written, when it has no quotes, escapes or expansions. */
  plain: string | null
  next: number
}

interface CaseFrame {
  kind: 'case'
  state: 'subject' | 'in' | 'pattern' | 'body'
}

type Frame = 'paren' | 'cond' | CaseFrame

interface Heredoc {
  delimiter: string
  quoted: boolean
  stripTabs: boolean
}

/** Printable ASCII characters that are only ever part of a word (no quote, escape, `$`, metacharacter). */
const WORD_CHARS = new Uint8Array(128)
for (let code = 0x21; code < 0x7f; code++) WORD_CHARS[code] = 1
for (const c of '\\\'"$`<>();&|') WORD_CHARS[c.charCodeAt(0)] = 0

/** Substitutions nested deeper than this are not read: the command asks (no real command comes close). */
const MAX_NESTING = 100

class BashLexer {
  readonly view: BashView = { commands: [], words: [], comments: [], controls: [], incomplete: null }
  private pending: Heredoc[] = []
  private depth = 0
  /** How far the last `((` attempt read. */
  private scanned = 0
  /** Characters read by `((` attempts that turned out not to be arithmetic: bounded, so reading stays linear. */
  private retries: number

  constructor(private readonly s: string) {
    this.retries = 4 * s.length + 1024
  }

  run(): void {
    this.list(0, this.s.length, false)
  }

  /** Reads a nested construct with `read`, unless it is nested too deep. */
  private nested(at: number, limit: number, read: () => number): number {
    if (this.depth >= MAX_NESTING) {
      this.fail(at, 'substitutions nested too deep to read')
      return limit
    }
    this.depth++
    try {
      return read()
    } finally {
      this.depth--
    }
  }

  private fail(at: number, what: string): void {
    this.view.incomplete ??= { at: Math.min(at, Math.max(0, this.s.length - 1)), what }
  }

  private control(at: number): void {
    if (isControl(this.s.charCodeAt(at))) this.view.controls.push(at)
  }

  private isContinuation(i: number): boolean {
    return this.s[i] === '\\' && this.s[i + 1] === '\n'
  }

  /** The first offset at or after `i` that is not a `\`-newline (bash removes those before it reads tokens). */
  private real(i: number): number {
    while (this.isContinuation(i)) i += 2
    return i
  }

  /** `token` at `i`, with any `\`-newline between its characters: the offset after it, or -1. */
  private match(i: number, token: string): number {
    for (let k = 0; k < token.length; k++) {
      i = this.real(i)
      if (this.s[i] !== token[k]) return -1
      i++
    }
    return i
  }

  private blanks(i: number, limit: number): number {
    while (i < limit) {
      const c = this.s[i]
      if (c === ' ' || c === '\t') i++
      else if (this.isContinuation(i) && i + 1 < limit) i += 2
      else break
    }
    return i
  }

  /**
   * A command list from `i` to `limit`. With `closer`, it ends at an unmatched `)` (the end of
   * `$(…)` or `<(…)`) and returns the offset after it.
   */
  private list(i: number, limit: number, closer: boolean): number {
    const s = this.s
    const frames: Frame[] = []
    let command: CommandView | null = null
    /** A command (or a reserved word) may start here. */
    let atStart = true
    /** Inside the head of `for`/`select`: `name`, then `in …` until a separator. */
    let header: 'name' | 'after-name' | 'list' | null = null
    /** After `function`: its name comes next; after the name, `()` may follow. */
    let functionName: 'keyword' | 'name' | null = null
    let regexNext = false

    const end = () => {
      command = null
    }
    const separator = () => {
      command = null
      atStart = true
      functionName = null
      if (header === 'after-name' || header === 'list') header = null
    }

    for (;;) {
      i = this.blanks(i, limit)
      if (i >= limit) {
        if (closer) this.fail(i, 'a "$(" or "<(" that is never closed')
        else if (frames.some((f) => f === 'paren')) this.fail(i, 'a "(" that is never closed')
        return i
      }
      const c = s[i]!
      const frame = frames[frames.length - 1]
      const inCond = frame === 'cond'

      if (c === '#') {
        let j = s.indexOf('\n', i)
        if (j < 0 || j > limit) j = limit
        this.view.comments.push({ start: i, end: j })
        for (let k = i; k < j; k++) this.control(k)
        i = j
        continue
      }
      if (c === '\n') {
        i = this.heredocs(i + 1, limit)
        if (!inCond) separator()
        continue
      }
      if (inCond && (c === '&' || c === '|' || c === '(' || c === ')' || c === '<' || c === '>')) {
        const pair = c === '&' || c === '|' ? this.match(i, c + c) : -1
        i = pair >= 0 ? pair : i + 1
        continue
      }
      if (c === ';') {
        const op = [';;&', ';;', ';&', ';'].find((o) => this.match(i, o) >= 0)!
        const at = i
        i = this.match(i, op)
        separator()
        if (op !== ';') {
          if (frame && typeof frame === 'object' && frame.state === 'body') frame.state = 'pattern'
          else this.fail(at, `"${op}" outside a case statement`)
        }
        continue
      }
      if (c === '&') {
        if (this.match(i, '&>') >= 0) {
          i = this.redirect(i, limit)
          continue
        }
        const pair = this.match(i, '&&')
        i = pair >= 0 ? pair : i + 1
        separator()
        continue
      }
      if (c === '|') {
        const pair = Math.max(this.match(i, '||'), this.match(i, '|&'))
        i = pair >= 0 ? pair : i + 1
        separator()
        continue
      }
      if (c === '(') {
        if (frame && typeof frame === 'object' && frame.state === 'pattern') {
          i++
          continue
        }
        const twice = this.match(i, '((')
        if ((atStart || header === 'name') && twice >= 0) {
          const after = this.attempt(i, () => this.arithmetic(twice, limit))
          if (after >= 0) {
            i = after
            end()
            atStart = false
            if (header === 'name') header = 'after-name'
            continue
          }
        }
        const current = command as CommandView | null
        if ((current && current.words.length === 1) || functionName === 'name') {
          // `name ()` or `function name ()`: a function definition; its body is a compound command.
          if (current) this.view.commands.splice(this.view.commands.indexOf(current), 1)
          functionName = null
          i = this.blanks(i + 1, limit)
          if (s[i] !== ')') this.fail(i, 'a function definition without ")"')
          else i++
          end()
          atStart = true
          continue
        }
        if (atStart) {
          frames.push('paren')
          i++
          continue
        }
        this.fail(i, 'an unexpected "("')
        i++
        continue
      }
      if (c === ')') {
        if (frame && typeof frame === 'object' && frame.state === 'pattern') {
          frame.state = 'body'
          i++
          separator()
          continue
        }
        if (frame === 'paren') {
          frames.pop()
          i++
          end()
          atStart = false
          continue
        }
        if (closer && frames.length === 0) return i + 1
        this.fail(i, 'an unexpected ")"')
        i++
        continue
      }
      if ((c === '<' || c === '>') && s[this.real(i + 1)] !== '(') {
        i = this.redirect(i, limit)
        continue
      }

      const current = command as CommandView | null
      const assignable = atStart || (current !== null && current.name !== null && ASSIGNING_BUILTINS.has(current.name))
      const word = regexNext ? this.regexWord(i, limit) : this.word(i, limit, assignable)
      regexNext = false
      i = word.next
      const next = s[i]
      if (word.plain !== null && (next === '<' || next === '>') && s[this.real(i + 1)] !== '(' && (/^\d+$/.test(word.plain) || /^\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(word.plain))) {
        // `2>`, `{fd}>`: the number or name belongs to the redirection.
        i = this.redirect(i, limit)
        continue
      }
      const span: Span = { start: word.start, end: word.end }
      // Every word but a command's own, which is compared with its command (popped again below).
      const others = this.view.words
      others.push(span)
      const plain = word.plain

      if (frame === 'cond') {
        if (plain === ']]') {
          frames.pop()
          atStart = false
        } else if (plain === '=~') regexNext = true
        continue
      }
      if (frame && typeof frame === 'object' && frame.state !== 'body') {
        if (frame.state === 'subject') frame.state = 'in'
        else if (frame.state === 'in') {
          if (plain !== 'in') this.fail(word.start, 'a case statement without "in"')
          frame.state = 'pattern'
        } else if (plain === 'esac') {
          frames.pop()
          end()
          atStart = false
        }
        continue
      }
      if (header === 'name') {
        header = 'after-name'
        continue
      }
      if (header === 'after-name') {
        if (plain === 'in') header = 'list'
        else if (plain === 'do') {
          header = null
          atStart = true
        } else this.fail(word.start, 'an unexpected word after "for NAME"')
        continue
      }
      if (header === 'list') continue
      if (functionName === 'keyword') {
        // `function name`: the name is not a command; `()` may follow, then the body.
        functionName = 'name'
        atStart = true
        continue
      }
      functionName = null
      if (atStart && plain !== null) {
        if (LEADING_RESERVED.has(plain)) continue
        if (CLOSING_RESERVED.has(plain)) {
          end()
          atStart = false
          continue
        }
        if (plain === 'esac' && frame && typeof frame === 'object') {
          frames.pop()
          end()
          atStart = false
          continue
        }
        if (plain === '[[') {
          frames.push('cond')
          atStart = false
          continue
        }
        if (plain === 'case') {
          frames.push({ kind: 'case', state: 'subject' })
          atStart = false
          continue
        }
        if (plain === 'for' || plain === 'select') {
          header = 'name'
          atStart = false
          continue
        }
        if (plain === 'function') {
          functionName = 'keyword'
          atStart = false
          continue
        }
      }
      if (atStart && ASSIGNMENT.test(this.raw(word))) continue
      if (atStart) {
        others.pop()
        command = { words: [span], name: plain }
        this.view.commands.push(command)
        atStart = false
        continue
      }
      if (current) {
        others.pop()
        current.words.push(span)
      }
    }
  }

  /** The word's text with `\`-newline removed. */
  private raw(word: Word): string {
    const text = this.s.slice(word.start, word.end)
    return text.includes('\\\n') ? text.replace(/\\\n/g, '') : text
  }

  /** A redirection operator at `i` (after any fd), then its target word. */
  private redirect(i: number, limit: number): number {
    const s = this.s
    const op = REDIRECTS.find((r) => this.match(i, r) >= 0)!
    const after = this.match(i, op)
    // `<&-`, `>&-` close a descriptor: bash reads `-` as the word, tree-sitter as part of the operator; the same meaning.
    if ((op === '<&' || op === '>&') && s[after] === '-' && (after + 1 >= limit || METACHARS.has(s[after + 1]!))) return after + 1
    i = this.blanks(after, limit)
    if (i >= limit || METACHARS.has(s[i]!)) {
      this.fail(i, `a "${op}" without a target`)
      return i
    }
    const target = this.word(i, limit, false)
    this.view.words.push({ start: target.start, end: target.end })
    if (op === '<<' || op === '<<-') {
      const raw = this.raw(target)
      this.pending.push({ delimiter: raw.replace(/\\(.)|['"]/gs, '$1'), quoted: /['"\\]/.test(raw), stripTabs: op === '<<-' })
    }
    return target.next
  }

  /** The bodies of the heredocs opened on the line that ended at `i`; returns the offset after them. */
  private heredocs(i: number, limit: number): number {
    const s = this.s
    const docs = this.pending
    this.pending = []
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
      if (!doc.quoted) this.expandable(bodyStart, Math.min(bodyEnd, limit), null)
    }
    return i
  }

  /**
   * Reads `fn` but forgets everything it recorded when it returns -1 (an attempt that failed,
   * like `$((` that turns out to be `$( (`).
   */
  private attempt(from: number, fn: () => number): number {
    if (this.retries <= 0) {
      this.fail(from, 'too many "((" that are not arithmetic')
      return -1
    }
    const v = this.view
    const mark = [v.commands.length, v.words.length, v.comments.length, v.controls.length, this.pending.length] as const
    const incomplete = v.incomplete
    const result = fn()
    if (result < 0) {
      this.retries -= this.scanned - from
      v.commands.length = mark[0]
      v.words.length = mark[1]
      v.comments.length = mark[2]
      v.controls.length = mark[3]
      this.pending.length = mark[4]
      v.incomplete = incomplete
    }
    return result
  }

  /** One word from `i`. `assignment`: a command may start here, so `name=(…)` is one word. */
  private word(i: number, limit: number, assignment: boolean): Word {
    const s = this.s
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
        if (i + 1 < limit) this.control(i + 1)
        i = Math.min(i + 2, limit)
        end = i
        continue
      }
      if (c === "'") {
        plain = false
        const j = s.indexOf("'", i + 1)
        if (j < 0 || j >= limit) {
          this.fail(i, 'a single quote that is never closed')
          i = end = limit
          break
        }
        i = end = j + 1
        continue
      }
      if (c === '"') {
        plain = false
        i = end = this.expandable(i + 1, limit, '"')
        continue
      }
      if (c === '$') {
        plain = false
        i = end = this.dollar(i, limit)
        continue
      }
      if (c === '`') {
        plain = false
        i = end = this.backtick(i, limit)
        continue
      }
      const substitution = c === '<' || c === '>' ? this.match(i, c + '(') : -1
      if (substitution >= 0) {
        plain = false
        i = end = this.nested(i, limit, () => this.list(substitution, limit, true))
        continue
      }
      if (c === '(' && assignment && ASSIGNMENT_OPEN.test(s.slice(start, i).replace(/\\\n/g, ''))) {
        plain = false
        i = end = this.nested(i, limit, () => this.balanced(i + 1, limit, '(', ')'))
        continue
      }
      if (METACHARS.has(c)) break
      this.control(i)
      i++
      end = i
    }
    const text = plain ? s.slice(start, end) : null
    return { start, end, plain: text !== null && text.includes('\\\n') ? text.replace(/\\\n/g, '') : text, next: i }
  }

  /** The right-hand side of `=~` inside `[[ ]]`: parentheses and `|` belong to the word. */
  private regexWord(i: number, limit: number): Word {
    const s = this.s
    const start = i
    let depth = 0
    while (i < limit) {
      const c = s[i]!
      if (c === '\\') i += 2
      else if (c === "'" || c === '"' || c === '$' || c === '`') i = this.word(i, limit, false).next
      else if (c === '(') {
        depth++
        i++
      } else if (c === ')' && depth > 0) {
        depth--
        i++
      } else if (depth === 0 && (c === ' ' || c === '\t' || c === '\n' || c === ')' || c === ';' || (c === '&' && this.match(i, '&&') >= 0))) break
      else i++
    }
    i = Math.min(i, limit)
    return { start, end: i, plain: null, next: i }
  }

  /** `$` at `i`: `$'…'`, `$"…"`, `$(…)`, `$((…))`, `${…}`, `$[…]` or a plain `$`. */
  private dollar(i: number, limit: number, quoted = false): number {
    return this.nested(i, limit, () => this.dollarBody(i, limit, quoted))
  }

  private dollarBody(i: number, limit: number, quoted: boolean): number {
    const s = this.s
    const k = this.real(i + 1)
    const n = s[k]
    // Inside "…" and heredoc bodies, $'…' and $"…" are not quotes: the `$` is a plain character.
    if (quoted && (n === "'" || n === '"')) return i + 1
    if (n === "'") {
      let j = k + 1
      while (j < limit && s[j] !== "'") j += s[j] === '\\' ? 2 : 1
      if (j >= limit) {
        this.fail(i, "a $'…' string that is never closed")
        return limit
      }
      return j + 1
    }
    if (n === '"') return this.expandable(k + 1, limit, '"')
    if (n === '(') {
      const twice = this.match(k, '((')
      if (twice >= 0) {
        const after = this.attempt(i, () => this.arithmetic(twice, limit))
        if (after >= 0) return after
      }
      return this.list(k + 1, limit, true)
    }
    if (n === '{') return this.balanced(k + 1, limit, '{', '}')
    if (n === '[') return this.balanced(k + 1, limit, '[', ']')
    return i + 1
  }

  /** The body of `((…))` from after `((`: the offset after `))`, or -1 when it is not arithmetic. */
  private arithmetic(i: number, limit: number): number {
    const s = this.s
    let depth = 0
    this.scanned = i
    while (i < limit) {
      this.scanned = i
      const c = s[i]!
      if (c === '(') depth++
      else if (c === ')') {
        if (depth === 0) return this.match(i + 1, ')')
        depth--
      } else if (c === '\\') {
        i += 2
        continue
      } else if (c === "'" || c === '"' || c === '$' || c === '`') {
        const before = this.view.incomplete
        i = this.word(i, limit, false).next
        if (this.view.incomplete !== before) return -1
        continue
      }
      i++
    }
    return -1
  }

  /** Up to the matching `close` (`${…}`, `$[…]`, `name=(…)`), with quotes and substitutions inside. */
  private balanced(i: number, limit: number, open: string, close: string): number {
    const s = this.s
    const from = i - 1
    let depth = 1
    while (i < limit) {
      const c = s[i]!
      if (c === '\\') i += 2
      else if (c === "'") {
        const j = s.indexOf("'", i + 1)
        i = j < 0 || j >= limit ? limit : j + 1
      } else if (c === '"') i = this.expandable(i + 1, limit, '"')
      else if (c === '$') i = this.dollar(i, limit)
      else if (c === '`') i = this.backtick(i, limit)
      else if (c === open) {
        depth++
        i++
      } else if (c === close) {
        if (--depth === 0) return i + 1
        i++
      } else i++
    }
    this.fail(from, `a "${open}" that is never closed`)
    return limit
  }

  /**
   * Text where only `$`, `` ` `` and `\` are special: the inside of `"…"` (ends at `quote`) or an
   * unquoted heredoc body (`quote` null: up to `limit`). Control characters here are data.
   */
  private expandable(i: number, limit: number, quote: '"' | null): number {
    const s = this.s
    const from = i - 1
    while (i < limit) {
      const c = s[i]!
      if (c === quote) return i + 1
      if (c === '\\') i += 2
      else if (c === '$') i = this.dollar(i, limit, true)
      else if (c === '`') i = this.backtick(i, limit)
      else i++
    }
    if (quote) this.fail(from, 'a double quote that is never closed')
    return limit
  }

  /** `` `…` ``: the command list up to the first unescaped backquote. */
  private backtick(i: number, limit: number): number {
    return this.nested(i, limit, () => this.backtickBody(i, limit))
  }

  private backtickBody(i: number, limit: number): number {
    const s = this.s
    let j = i + 1
    while (j < limit && s[j] !== '`') j += s[j] === '\\' ? 2 : 1
    if (j >= limit) {
      this.fail(i, 'a backquote that is never closed')
      return limit
    }
    const pending = this.pending
    this.pending = []
    this.list(i + 1, j, false)
    this.pending = pending
    return j + 1
  }
}
