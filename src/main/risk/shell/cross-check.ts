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
 *
 * The tokenizer is bash-lexer.ts (its state), bash-words.ts (words) and bash-commands.ts (command
 * lists); tree-sitter's side is tree-sitter-view.ts; text both read alike is plain-command.ts.
 */
import type { Span } from './bash-lexer'
import { readBashView } from './bash-commands'
import { loadBashParser, type SyntaxNode } from './parser'
import { isPlainCommand } from './plain-command'
import { prepareSource, type PreparedSource } from './source'
import { readTreeSitterView } from './tree-sitter-view'

export type { BashView, CommandView, Span } from './bash-lexer'
export type { TreeSitterView } from './tree-sitter-view'
export { isPlainCommand, readBashView, readTreeSitterView }

export interface CrossCheckFinding {
  rule: 'shell.parser-disagreement' | 'shell.comment-boundary' | 'shell.control-char'
  message: string
  verdict: 'ask'
  /** Offsets into the original command text (before the pre-pass). */
  start: number
  end: number
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
