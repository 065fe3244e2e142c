/**
 * Programs that run code (docs/risk.md, items 4, 9 and 10): shells, `eval`, `source` and
 * interpreters. A shell's `-c` text and eval's literal text are judged as the commands they are
 * (zsh's only when it reads alike in bash); inline code, scripts, stdin and other shells' syntax
 * ask; downloaded code is denied.
 */
import type { AddFinding, Analysis, Invocation, Mapper } from './analysis'
import { annotate, MAX_NESTING } from './analysis'
import { checkDownloadedRun } from './downloads'
import { checkPaths } from './path-checks'
import { INTERPRETERS } from './programs'
import { checkStdinCode } from './stdin-checks'
import { containsFetcher } from './syntax'
import { checkWindowsInline } from './windows-checks'
import type { Word } from './words'

/** Shells whose syntax is bash's (or POSIX sh's): their -c text is analysed; any other shell's is opaque. */
const BASH_LIKE = new Set(['sh', 'bash', 'dash', 'ash', 'rbash'])

export function classifyShell(a: Analysis, inv: Invocation, argv: Word[], add: AddFinding, toOuter: Mapper, depth: number): void {
  const shell = inv.programs[inv.programs.length - 1] ?? 'sh'
  const foreign = () => add('shell.foreign-shell', `${shell} has its own syntax; what it runs cannot be judged by bash's rules.`, 'ask', argv[0]!)
  let i = 1
  let script: Word | null = null
  let inline = false
  while (i < argv.length) {
    const v = argv[i]!.value
    if (v === null) break
    if (v === '-c' || (/^-[a-z]*c[a-z]*$/.test(v) && !v.startsWith('--'))) {
      inline = true
      script = argv[i + 1] ?? null
      break
    }
    // -s: commands come from stdin; the words after it are only arguments.
    if (v === '-s' || /^-[a-z]*s[a-z]*$/.test(v)) {
      if (!BASH_LIKE.has(shell)) foreign()
      return checkStdinCode(a, inv, inv.programs.at(-1) ?? 'sh', argv[0]!, add, { depth, toOuter })
    }
    if (v === '--') {
      i++
      break
    }
    if (!v.startsWith('-') && !v.startsWith('+')) break
    i++
  }
  const program = inv.programs[inv.programs.length - 1] ?? 'sh'
  // Other shells quote, expand and split differently: what bash's rules read there proves nothing, except zsh
  // text in the words both read alike (docs/risk.md, item 10).
  if (!BASH_LIKE.has(shell) && !(inline && shell === 'zsh' && script?.value != null && readsAlikeInZsh(script.value))) foreign()
  if (inline) return judgeInlineScript(a, argv, script, program, add, toOuter, depth)
  const scriptArg = argv[i]
  if (scriptArg) {
    checkDownloadedRun(a.scope, scriptArg, add)
    add('shell.script-file', `${program} runs the script ${scriptArg.value ?? '(computed)'}, whose contents are not judged.`, 'ask', scriptArg)
    checkRemoteSubstitution(argv, add)
    return
  }
  checkStdinCode(a, inv, program, argv[0]!, add, { depth, toOuter })
}

/** `sh -c TEXT`: literal text is judged as the command it is, its offsets mapped into the outer command. */
function judgeInlineScript(a: Analysis, argv: Word[], script: Word | null, program: string, add: AddFinding, toOuter: Mapper, depth: number): void {
  if (!script || script.value === null) {
    add('shell.dynamic-script', `${program} -c runs a script that is only known at run time.`, 'ask', script ?? argv[0]!)
    checkRemoteSubstitution(argv, add)
    return
  }
  if (depth >= MAX_NESTING) {
    add('shell.nesting', 'Shells nested this deep are not analysed.', 'ask', script)
    return
  }
  const word = script
  const before = a.evidence.specs.length
  const offset = word.node.type === 'raw_string' || (word.node.type === 'string' && word.node.text.slice(1, -1) === word.value)
  a.analyseText(word.value!, depth + 1, (start, end) =>
    offset ? toOuter(word.start + 1 + start, word.start + 1 + end) : toOuter(word.start, word.end)
  )
  annotate(a.evidence, before, `in ${[program, ...argv.slice(1).map((w) => w.value ?? '').filter((v) => v.startsWith('-'))].join(' ')} text`)
}

function checkRemoteSubstitution(argv: Word[], add: AddFinding): void {
  for (const word of argv) {
    for (const sub of word.substitutions) {
      if (containsFetcher(sub)) add('shell.critical.remote-code', 'Downloads code and runs it.', 'deny', word)
    }
  }
}

export function classifyEval(a: Analysis, inv: Invocation, argv: Word[], program: string, add: AddFinding, toOuter: Mapper, depth: number): void {
  const head = argv[0]!
  checkRemoteSubstitution(argv, add)
  if (program !== 'eval') {
    if (argv[1]) checkDownloadedRun(a.scope, argv[1], add)
    add('shell.source', `${program} runs a file's contents in this shell.`, 'ask', head)
    if (argv.length === 1 || argv[1]?.value === '/dev/stdin') checkStdinCode(a, inv, program, head, add)
    return
  }
  add('shell.eval', 'eval runs text as a command; it is never allowed without asking.', 'ask', head)
  const parts = argv.slice(1).map((w) => w.value)
  if (parts.length > 0 && parts.every((p): p is string => p !== null) && depth < MAX_NESTING) {
    const first = argv[1]!
    const last = argv[argv.length - 1]!
    a.analyseText(parts.join(' '), depth + 1, () => toOuter(first.start, last.end))
  }
}

export function classifyInterpreter(a: Analysis, inv: Invocation, argv: Word[], interpreter: string, add: AddFinding): void {
  const head = argv[0]!
  const inlineFlags = INTERPRETERS.get(interpreter) ?? new Set<string>()
  const lowerArgs = argv.slice(1).map((w) => w.value?.toLowerCase() ?? null)
  checkRemoteSubstitution(argv, add)
  const program = inv.programs[inv.programs.length - 1] ?? interpreter
  if (interpreter === 'awk' || interpreter === 'gawk' || interpreter === 'mawk' || interpreter === 'nawk') {
    add('shell.inline-code', `${program} programs can run commands (system(), pipes); they are never allowed without asking.`, 'ask', head)
  } else if (lowerArgs.some((arg) => arg !== null && (inlineFlags.has(arg) || [...inlineFlags].some((f) => f.startsWith('-') && f.length === 2 && arg.startsWith(f) && !arg.startsWith('--'))))) {
    checkWindowsInline(interpreter, argv, add)
    const encoded = lowerArgs.some((arg) => arg === '-encodedcommand' || arg === '-ec' || arg === '-e' && (interpreter === 'pwsh' || interpreter === 'powershell'))
    add(encoded ? 'shell.obfuscated-command' : 'shell.inline-code', `${program} runs code given on the command line; it is never allowed without asking.`, 'ask', head)
  } else if (argv.length > 1 && argv.slice(1).some((w) => w.value !== null && !w.value.startsWith('-'))) {
    for (const word of argv.slice(1)) checkDownloadedRun(a.scope, word, add)
    add('shell.interpreter', `${program} runs a program whose contents are not judged.`, 'ask', head)
  } else {
    checkStdinCode(a, inv, program, head, add)
  }
  checkPaths(a, argv, add, false)
}

/**
 * zsh text made only of what zsh and bash read alike: plain words (letters, digits, `_./,:+@%-`, `=` not at a
 * word's start, `~` only at its start), single quotes, double quotes without `$`, backquote, `\` or `!`, and
 * `;` `&&` `||` `|`. No `$`, globs, parentheses, `<`/`>` or `=word` (zsh's expansions, qualifiers and numeric
 * ranges live there).
 */
function readsAlikeInZsh(script: string): boolean {
  return ZSH_ALIKE.test(script)
}
const ZSH_PIECE = String.raw`(?:[\w./,:+@%=-]|'[^']*'|"[^"$\x60\\!]*")`
// `~` only alone or before `/`: zsh's named directories (`~name`, from its start-up files) are not bash's `~user`.
const ZSH_WORD = String.raw`(?:~(?=[ \t;&|]|$)|(?:~(?=/))?(?:[\w./,:+@%-]|'[^']*'|"[^"$\x60\\!]*")${ZSH_PIECE}*)`
const ZSH_ALIKE = new RegExp(String.raw`^[ \t]*${ZSH_WORD}(?:(?:[ \t]+|[ \t]*(?:;|&&|\|\||\|)[ \t]*)${ZSH_WORD})*[ \t;]*$`)
