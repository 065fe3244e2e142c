/**
 * How a word is written (docs/risk.md, item 4): substitutions, expansions, ANSI-C strings,
 * quote splicing and escapes in a program's name, non-ASCII — never plain. `$(…)` and plain
 * public variables are settled once the program is known; the rest asks here.
 */
import { normalise } from '../paths'
import type { AddFinding, Scope } from './analysis'
import { rawText, TRUSTED_DIRS } from './analysis'
import { basenameOf } from './critical'
import type { SyntaxNode } from './parser'
import { SECRET_SHAPED_NAME } from './safe-programs'
import type { ReadKind } from './spec'
import type { Word } from './words'

export const SUBSTITUTION_MESSAGE = 'Runs a command inside another ($(…), `…` or <(…)), and its output is a word nobody has seen.'

/** How a word is written: expansions, substitutions, ANSI-C, non-ASCII — never plain. */
export function checkWordShape(word: Word, add: AddFinding, plainVariables?: Word[], substituted?: Word[]): void {
  // `$(…)` and backticks: their commands are judged on their own (the walker visits them); their output is a word
  // nobody has seen, harmless only where the program's spec says any value is (settled in classify). `<(…)` asks.
  if (word.substitutions.length > 0) {
    if (substituted && word.substitutions.every((n) => plainSubstitution(n, word.node))) substituted.push(word)
    else add('shell.substitution', SUBSTITUTION_MESSAGE, 'ask', word)
  }
  if (word.dangerousExpansion) add('shell.dangerous-expansion', 'This expansion can run or redirect code (${x@P}, ${!x}).', 'ask', word)
  else if (word.expansions.length > 0) {
    if (plainVariables && word.expansions.every(isPlainPublicVariable)) {
      if (!substituted?.includes(word)) plainVariables.push(word)
    } else add('shell.expansion', 'The value of a variable is only known when the command runs.', 'ask', word)
  }
  if (word.ansiC) add('shell.ansi-c', 'An ANSI-C string ($\'…\') can spell anything in escapes.', 'ask', word)
  if (word.value === null && word.substitutions.length === 0 && word.expansions.length === 0) {
    add('shell.dynamic-word', 'This word is only known when the command runs (brace or arithmetic expansion).', 'ask', word)
  }
}

/** The program's name: spliced from quotes, escaped, non-ASCII or a glob is a disguise. */
export function checkCommandWord(head: Word, add: AddFinding): void {
  if (head.nonAscii) add('shell.non-ascii-command', `The program name contains non-ASCII or control characters: ${escapeForDisplay(head.value ?? '')}.`, 'ask', head)
  if (head.spliced || head.escaped || (head.quoted && head.value !== '' && !/^["'][^"']*["']$/.test(rawText(head)) )) {
    add('shell.obfuscated-command', 'The program name is spliced from quotes or escapes, a common disguise.', 'ask', head)
  } else if (head.escaped || (head.quoted && rawText(head) !== head.value)) {
    add('shell.obfuscated-command', 'The program name is quoted or escaped, a common disguise.', 'ask', head)
  }
  if (head.glob) add('shell.glob-command', 'The program name is a file-name pattern.', 'ask', head)
}

/** The program's bare name; one given by a path outside the system folders is never the system program (`./cat`). */
export function resolveProgram(scope: Scope, head: Word, add: AddFinding): string {
  const value = head.value!
  if (!value.includes('/') && !value.includes('\\')) return value
  const name = basenameOf(value)
  if (!TRUSTED_DIRS.test(normalise(value, scope.ctx, scope.ctx.cwd))) {
    add('shell.explicit-path', `${value} is not the system ${name}: programs outside the system folders are never trusted by name.`, 'ask', head)
  }
  return name
}

/** Plain public variables are fine where the program reads no files from its arguments (`echo $PATH`). */
export function settleVariables(words: Word[], reads: ReadKind, add: AddFinding): void {
  if (reads === 'none') return
  // A word whose value is known ($HOME, $PWD) is judged as the path it is; only unknown ones ask.
  for (const word of words) if (word.value === null) add('shell.expansion', 'The value of a variable is only known when the command runs.', 'ask', word)
}

/**
 * `$(…)` or backticks standing as (part of) the word itself, in or out of double quotes — not inside an arithmetic
 * expansion, where bash evaluates the output as an expression that can run code (`a[$(…)]`), nor inside a parameter
 * expansion, nor `<(…)`.
 */
function plainSubstitution(sub: SyntaxNode, word: SyntaxNode): boolean {
  if (sub.type !== 'command_substitution') return false
  if (sub.id === word.id) return true
  for (let n = sub.parent; n; n = n.parent) {
    if (n.type !== 'string' && n.type !== 'concatenation') return false
    if (n.id === word.id) return true
  }
  return false
}

/**
 * `$NAME`, `${NAME}`, `${#NAME}` or `${NAME<op>word}` of a variable that is not secret-shaped
 * (`$PATH`, `${HOME:-/tmp}`, `${PWD##*-}`; docs/risk.md, item 4): the operators that only pick a
 * default or trim (`:-` `-` `:+` `+` `#` `##` `%` `%%`), with a plain word. Assigning ones (`:=`) are not.
 */
function isPlainPublicVariable(node: SyntaxNode): boolean {
  const match = /^\$(?:\{#?([A-Za-z_][A-Za-z0-9_]*)(?:(?::?[-+]|##?|%%?)[^$`{}\\]*)?\}|([A-Za-z_][A-Za-z0-9_]*))$/.exec(node.text)
  const name = match?.[1] ?? match?.[2]
  if (name === undefined) return false
  // `$env` is PowerShell's environment drive (`$env:GITHUB_TOKEN`).
  if (name.toLowerCase() === 'env') return false
  return name === 'PWD' || name === 'OLDPWD' || !SECRET_SHAPED_NAME.test(name)
}

function escapeForDisplay(value: string): string {
  return [...value].map((c) => (/[\x20-\x7e]/.test(c) ? c : `\\u{${c.codePointAt(0)!.toString(16)}}`)).join('')
}
