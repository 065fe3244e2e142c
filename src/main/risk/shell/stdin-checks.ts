/**
 * What flows into a program's stdin (docs/risk.md, items 4 and 9): literal heredoc and herestring
 * text, what an `echo`/`printf` or a decoder right before it in the pipeline prints, and what
 * xargs appends. Literal text fed to a known-safe program is data; fed to a shell it is judged as
 * the command it is; downloaded text fed to a shell is remote code.
 */
import { expandGlob, normalise } from '../paths'
import type { AddFinding, Analysis, Invocation, Mapper } from './analysis'
import { MAX_NESTING } from './analysis'
import { basenameOf, criticalHit } from './critical'
import type { SyntaxNode } from './parser'
import { checkOnePath, type PathJudging } from './path-checks'
import { FETCHERS, interpreterName, SHELLS } from './programs'
import type { ReadKind, SpecEntry } from './spec'
import { isWordNode } from './syntax'
import { readWord, type Word, type WordContext } from './words'

export const HEREDOC_MESSAGE = 'Feeds inline text to the command (heredoc or herestring); only literal text fed to a known-safe program runs silently.'

/** A herestring's or quoted heredoc's text, when no expansion can change it; else null. */
export function literalStdin(node: SyntaxNode, ctx: WordContext): string | null {
  if (node.type === 'herestring_redirect') {
    const word = node.namedChildren.find((c) => c !== null && isWordNode(c))
    return word ? readWord(word, ctx).value : null
  }
  const body = node.namedChildren.find((c) => c?.type === 'heredoc_body')
  if (!body) return null
  const quoted = /<<-?\s*['"\\]/.test(node.text)
  return quoted || !/[$`\\]/.test(body.text) ? body.text : null
}

/** What an `echo` or `printf` right before in the pipeline prints, when every word is literal; else null. */
export function literalPipedText(inv: Invocation): string | null {
  const upstream = inv.pipedFrom.at(-1)
  const program = upstream?.words[0]?.value
  // An encoded payload decoded on the way (`echo … | base64 -d | sh`) is judged as the text it decodes to.
  if (upstream && program) {
    const decoded = decodedText(upstream, program)
    if (decoded !== undefined) return decoded
  }
  // `cat <<< 'text' | sh`: cat passes its herestring on.
  if (upstream && program === 'cat' && upstream.words.length === 1 && upstream.stdinText !== undefined) return upstream.stdinText
  const words = upstream ? literalPrintedWords(upstream) : null
  return words ? words.join(' ').replace(/\\n/g, '\n').replace(/%s/g, '') : null
}

/** What a decoder in a pipeline (`base64 -d`, `xxd -r -p`, `rev`) prints for literal input; undefined when it is not one. */
function decodedText(inv: Invocation, program: string): string | null | undefined {
  const args = inv.words.slice(1).map((w) => w.value)
  const decode = program === 'base64' && args.some((a) => a === '-d' || a === '--decode' || a === '-D' || (a !== null && /^-[a-zA-Z]*d/.test(a) && !a.startsWith('--')))
  const unhex = program === 'xxd' && args.some((a) => a !== null && /^-[a-z]*r/.test(a))
  if (!decode && !unhex && program !== 'rev') return undefined
  const input = inv.stdinText ?? literalPipedText(inv)
  if (input === null) return null
  if (decode) return Buffer.from(input.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (unhex) return Buffer.from(input.replace(/[^0-9a-f]/gi, ''), 'hex').toString('utf8')
  return input.split('\n').map((line) => [...line].reverse().join('')).join('\n')
}

/** The words an `echo` or `printf` gets (echo's -n/-e flags left out), when every one is literal; else null. */
function literalPrintedWords(inv: Invocation): string[] | null {
  const program = inv.words[0]?.value
  if (program !== 'echo' && program !== 'printf') return null
  const values = inv.words.slice(1).map((w) => w.value)
  if (values.some((v) => v === null)) return null
  return (values as string[]).filter((v, i) => !(program === 'echo' && i === 0 && /^-[neE]+$/.test(v)))
}

/**
 * Literal heredoc or herestring text fed to a program its spec allowed is data, like `echo text |` (docs/risk.md,
 * item 4). Where the program reads file names from stdin (`wc --files0-from=-`, `file -f -`), each name is judged
 * as the file operand it becomes. Text only known at run time, or downloaded, is not.
 */
export function literalStdinHarmless(a: PathJudging, inv: Invocation, entry: SpecEntry, argv: Word[], reads: ReadKind, add: AddFinding): boolean {
  if (!inv.heredoc) return true
  if (inv.stdinText === undefined || inv.stdinFetches) return false
  const values = argv.slice(1).map((w) => w.value)
  const fromStdin = (v: string | null | undefined) => v === '-' || v === '/dev/stdin'
  // `sha256sum -c` reads the files its checksum list names.
  const checksums = /sum$/.test(entry.program) && values.some((v) => v === '-c' || v === '--check' || (v !== null && /^-[a-z]*c[a-z]*$/.test(v)))
  const namesFromStdin =
    checksums ||
    entry.reads.some(fromStdin) ||
    values.some((v, k) => v !== null && /^--files0?-from(=|$)/.test(v) && (v.includes('=') ? fromStdin(v.slice(v.indexOf('=') + 1)) : fromStdin(values[k + 1])))
  if (namesFromStdin) {
    for (const name of inv.stdinText.split(/[\s\0]+/).filter(Boolean)) checkOnePath(a, name, argv[0]!, add, false, reads === 'none' ? 'names' : reads)
  }
  return true
}

/** A shell or interpreter reading code from a pipe or heredoc; remote code when a fetch feeds it. */
export function checkStdinCode(a: Analysis, inv: Invocation, program: string, head: Word, add: AddFinding, feed?: { depth: number; toOuter: Mapper }): void {
  // Text fed to a shell is a command: judge it as one (`bash <<< 'rm -rf /'`, `printf 'rm -rf ~' | sh`).
  const fed = inv.stdinText ?? literalPipedText(inv)
  if (fed !== null && feed && feed.depth < MAX_NESTING && SHELLS.has(program)) {
    a.analyseText(fed, feed.depth + 1, () => feed.toOuter(head.start, head.end))
  }
  const upstream = inv.pipedFrom.flatMap((p) => p.programs)
  if (inv.stdinFetches || upstream.some((p) => FETCHERS.has(p.toLowerCase()))) {
    add('shell.critical.remote-code', `Downloads code and pipes it into ${program}.`, 'deny', head)
  } else if (inv.pipedFrom.length > 0) {
    add('shell.pipe-to-shell', `Pipes text into ${program}, which runs it as code.`, 'ask', head)
  } else if (inv.heredoc) {
    add('shell.heredoc-to-shell', `Feeds a heredoc to ${program}, which runs it as code.`, 'ask', head)
  } else {
    add('shell.interactive-shell', `Starts ${program} reading commands from its input.`, 'ask', head)
  }
}

/**
 * What xargs appends is known when literal text or a listing feeds it: `echo ~ | xargs rm -rf`
 * deletes home, `echo 'rm -rf /' | xargs -I{} bash -c {}` runs that text, `find ~ | xargs rm`
 * deletes under home. The catalogue judges the command with those words added.
 */
export function checkXargsInput(a: Analysis, argv: Word[], inv: Invocation, add: AddFinding, toOuter: Mapper, depth: number): void {
  const { ctx } = a.scope
  const upstream = inv.pipedFrom.at(-1)
  if (!upstream) return
  const program = basenameOf(argv[0]?.value ?? '')
  // `curl … | xargs sh -c`: what was downloaded becomes the script.
  if ((SHELLS.has(program) || interpreterName(program)) && inv.pipedFrom.some((p) => p.programs.some((q) => FETCHERS.has(q.toLowerCase())))) {
    add('shell.critical.remote-code', `Downloads code and hands it to ${program} through xargs.`, 'deny', argv[0]!)
  }
  const source = upstream.words[0]?.value ?? ''
  const printed = literalPrintedWords(upstream)
  let fed: string[] | null = null
  // A printf format is not printed as a word (`printf %s "$HOME"` prints the home folder).
  if (printed) fed = printed.filter((w, i) => !(source === 'printf' && i === 0 && /%/.test(w)))
  else if (source === 'ls' || source === 'find') {
    const named = upstream.words.slice(1).map((w) => w.value)
    fed = named.filter((w): w is string => w !== null && !w.startsWith('-') && !/^[!()]$/.test(w)).slice(0, source === 'find' ? 8 : 64)
  }
  if (!fed || fed.length === 0) return
  // The words as the shell expanded them (globs included) are what echo prints and ls lists.
  fed = fed.flatMap((w) => (/[*?[]/.test(w) ? (expandGlob(normalise(w, ctx, ctx.cwd)) ?? [w]) : [w]))
  // find lists every file under its roots: deleting them all is deleting the root.
  if (source === 'find' && (program === 'rm' || program === 'shred')) fed = [...fed, '-r']
  const values = [...argv.map((w) => w.value), ...fed]
  const hit = a.scope.cwds.map((cwd) => criticalHit(program, values, ctx, cwd)).find(Boolean)
  if (hit) add(hit.rule, `${hit.message} (the words come from ${source} through xargs)`, 'deny', argv[0]!)
  // `xargs bash -c` runs its input: judge the text as a command.
  if (SHELLS.has(program) && (source === 'echo' || source === 'printf') && depth < MAX_NESTING) {
    a.analyseText(fed.join(' '), depth + 1, () => toOuter(argv[0]!.start, argv[0]!.end))
  }
}
