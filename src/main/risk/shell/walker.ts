/**
 * The walk over tree-sitter-bash's tree (docs/risk.md, item 3): every simple command — in chains,
 * pipelines, groups, subshells, `$(…)`, `<(…)`, loops and function bodies — with its words,
 * assignments, redirections and what is piped into it; and the constructs around them that ask
 * by themselves (control flow, assignments, functions, heredocs not owned by one command, a job
 * left running at the end).
 */
import type { Verdict } from '../../../shared'
import type { Invocation, Redirect, ShellContext, ShellFinding } from './analysis'
import type { SyntaxNode } from './parser'
import { redirectOperator } from './redirects'
import { HEREDOC_MESSAGE, literalStdin } from './stdin-checks'
import { containsFetcher, followedByStatement, hasArithmeticSubscriptCode, isStatement, WORD_NODES } from './syntax'
import { readWord, type Word } from './words'

/** What a walk found: the simple commands, the constructs that ask by themselves, and whether a statement with no program was understood (`[ -d src ]`). */
export interface Walk {
  readonly ctx: ShellContext
  readonly invocations: Invocation[]
  readonly structures: ShellFinding[]
  understood: boolean
  /** Nodes already reported as a structure. */
  readonly seen: Set<number>
}

const BACKGROUND_MESSAGE = 'Runs a command in the background, where it outlives the check.'

/** Walks the syntax tree from `root`, collecting every simple command and the constructs around them. */
export function walkTree(root: SyntaxNode, ctx: ShellContext): Walk {
  const walk: Walk = { ctx, invocations: [], structures: [], understood: false, seen: new Set() }
  visit(walk, root, [])
  return walk
}

function structure(walk: Walk, node: SyntaxNode, rule: string, message: string, verdict: Verdict = 'ask'): void {
  if (walk.seen.has(node.id)) return
  walk.seen.add(node.id)
  walk.structures.push({ rule, message, verdict, start: node.startIndex, end: node.endIndex })
}

function visit(walk: Walk, node: SyntaxNode, pipedFrom: Invocation[]): void {
  const type = node.type
  switch (type) {
    case 'program':
    case 'list':
    case 'compound_statement':
    case 'subshell':
    case 'do_group':
    case 'negated_command':
    case 'else_clause':
    case 'elif_clause':
      return visitList(walk, node, type, pipedFrom)
    case 'pipeline':
      return visitPipeline(walk, node, pipedFrom)
    case 'redirected_statement':
      return visitRedirected(walk, node, pipedFrom)
    case 'command':
      visitCommand(walk, node, [], pipedFrom)
      return
    case 'comment':
      return
    case 'variable_assignment':
    case 'variable_assignments':
      structure(walk, node, 'shell.assignment', 'Sets a shell variable, which can change what later commands run.')
      return visitWords(walk, node)
    case 'declaration_command':
    case 'unset_command':
      structure(walk, node, 'shell.assignment', `${node.child(0)?.text ?? 'declare'} changes shell variables.`)
      return visitWords(walk, node)
    case 'function_definition':
      return visitFunction(walk, node)
    case 'test_command':
      walk.understood = true
      if (hasArithmeticSubscriptCode(node.text)) {
        structure(walk, node, 'shell.arithmetic-subscript', 'In an arithmetic test bash runs $(…) inside an array subscript, even in single quotes.')
      }
      return visitWords(walk, node)
    case 'if_statement':
    case 'while_statement':
    case 'for_statement':
    case 'c_style_for_statement':
    case 'case_statement':
    case 'case_item':
      structure(walk, node, 'shell.control-flow', 'Loops and conditionals are not auto-allowed.')
      for (const child of node.namedChildren) {
        if (!child) continue
        if (isStatement(child)) visit(walk, child, [])
        else visitWords(walk, child)
      }
      return
    case 'ERROR':
      for (const child of node.namedChildren) if (child) visit(walk, child, pipedFrom)
      return
    default:
      if (WORD_NODES.has(type)) return visitWords(walk, node)
      structure(walk, node, 'shell.unknown-construct', `The construct "${type}" is not understood, so it cannot be judged safe.`)
      for (const child of node.namedChildren) if (child) visit(walk, child, pipedFrom)
  }
}

/** A list of statements (the program, `a && b`, `{ }`, `( )`, a loop's body). */
function visitList(walk: Walk, node: SyntaxNode, type: string, pipedFrom: Invocation[]): void {
  // tree-sitter reads `a | b | c && d` as `a | (b | c && d)`; bash pipes a into b only. So a
  // list's first command keeps what is piped in (download-then-run stays visible), the rest do not.
  let first = true
  const children = node.children
  for (const [k, child] of children.entries()) {
    if (!child) continue
    // `a & b`: both are judged as any other commands; a job left running at the end (`sleep 10 &`) asks (docs/risk.md, item 4).
    if (child.type === '&' && !followedByStatement(children, k)) structure(walk, child, 'shell.background', BACKGROUND_MESSAGE)
    else if (child.type === '&') markBackground(walk, children, k)
    else if (child.type === ';;' || child.type === ';&' || child.type === ';;&') {
      structure(walk, child, 'shell.parse-error', `"${child.type}" outside a case statement is a syntax error in bash.`)
    } else if (child.isNamed) {
      const inherits = type === 'list' ? first : type !== 'program'
      visit(walk, child, inherits ? pipedFrom : [])
      first = false
    }
  }
}

function visitPipeline(walk: Walk, node: SyntaxNode, upstream: Invocation[]): void {
  const before: Invocation[] = [...upstream]
  for (const stage of node.namedChildren) {
    if (!stage) continue
    const start = walk.invocations.length
    visit(walk, stage, [...before])
    before.push(...walk.invocations.slice(start))
  }
}

function visitRedirected(walk: Walk, node: SyntaxNode, pipedFrom: Invocation[]): void {
  const redirects: SyntaxNode[] = []
  let body: SyntaxNode | null = null
  for (const child of node.namedChildren) {
    if (!child) continue
    if (child.type.endsWith('_redirect')) redirects.push(child)
    else if (!body) body = child
    else visit(walk, child, [])
  }
  if (body && body.type === 'command') {
    visitCommand(walk, body, redirects, pipedFrom)
    return
  }
  const start = walk.invocations.length
  if (body) visit(walk, body, pipedFrom)
  const owner = walk.invocations[start] ?? null
  for (const r of redirects) attachRedirect(walk, r, owner, true)
}

function visitCommand(walk: Walk, node: SyntaxNode, outerRedirects: SyntaxNode[], pipedFrom: Invocation[]): void {
  const inv: Invocation = { node, words: [], assignments: [], redirects: [], pipedFrom, heredoc: false, programs: [] }
  walk.invocations.push(inv)
  const pendingRedirects: SyntaxNode[] = [...outerRedirects]
  for (const child of node.namedChildren) {
    if (!child) continue
    // Each `type` is a call into the parser's WASM: read it once.
    const type = child.type
    if (type === 'variable_assignment') {
      const name = child.childForFieldName('name')?.text ?? child.text.split('=')[0]!
      const valueNode = child.childForFieldName('value')
      const value = valueNode ? readWord(valueNode, walk.ctx) : null
      if (value) visitSubstitutions(walk, value)
      inv.assignments.push({ name, value, node: child })
    } else if (type.endsWith('_redirect')) pendingRedirects.push(child)
    else if (type === 'comment') continue
    else {
      const word = readWord(child, walk.ctx)
      visitSubstitutions(walk, word)
      inv.words.push(word)
    }
  }
  for (const r of pendingRedirects) attachRedirect(walk, r, inv, false)
}

function attachRedirect(walk: Walk, node: SyntaxNode, owner: Invocation | null, loose: boolean): void {
  if (node.type === 'heredoc_redirect' || node.type === 'herestring_redirect') return attachHeredoc(walk, node, owner, loose)
  const destination = node.childForFieldName('destination') ?? node.namedChildren.filter((c) => c?.type !== 'file_descriptor').at(-1) ?? null
  const operator = redirectOperator(node, destination)
  const target = destination ? readWord(destination, walk.ctx) : null
  if (target) visitSubstitutions(walk, target)
  const redirect: Redirect = { node, operator, target }
  attachSwallowedWords(walk, node, owner, loose)
  if (owner) owner.redirects.push(redirect)
  else {
    // A redirect with no command of its own (`> /dev/sda`): judged through a bare invocation.
    walk.invocations.push({ node, words: [], assignments: [], redirects: [redirect], pipedFrom: [], heredoc: false, programs: [] })
  }
}

/** A heredoc or herestring: its text is the owner's stdin, judged with its program when it belongs to one simple command. */
function attachHeredoc(walk: Walk, node: SyntaxNode, owner: Invocation | null, loose: boolean): void {
  const literal = literalStdin(node, walk.ctx)
  if (owner) {
    owner.heredoc = true
    if (literal !== null) owner.stdinText = literal
    if (containsFetcher(node)) owner.stdinFetches = true
  }
  // Literal text fed to one simple command is judged with its program (classify); anything else asks here.
  if (owner && !loose) owner.heredocNode = node
  else structure(walk, node, 'shell.heredoc', HEREDOC_MESSAGE)
  for (const child of node.namedChildren) {
    if (!child) continue
    if (child.type === 'heredoc_body') visitWords(walk, child)
    else if (child.type === 'heredoc_start' || child.type === 'heredoc_end') continue
    else if (child.type === 'pipeline') visitPipeline(walk, child, owner ? [owner] : [])
    else if (isStatement(child)) visit(walk, child, [])
    else if (child.type.endsWith('_redirect')) attachRedirect(walk, child, owner, loose)
    else visitWords(walk, child)
  }
}

/**
 * tree-sitter reads the words after a redirection's target as more targets (`wc -l <a b`); bash
 * passes them to the command as arguments, so they are judged as its operands. After a compound
 * command bash rejects them. The second parser asks in both cases; this keeps the paths judged.
 */
function attachSwallowedWords(walk: Walk, node: SyntaxNode, owner: Invocation | null, loose: boolean): void {
  const extra = node.childrenForFieldName('destination').slice(1)
  if (extra.length === 0) return
  if (!owner || loose) return structure(walk, node, 'shell.parse-error', 'Words after the redirection of a compound command are a syntax error in bash.')
  for (const child of extra) {
    const word = readWord(child, walk.ctx)
    visitSubstitutions(walk, word)
    owner.words.push(word)
  }
}

function visitFunction(walk: Walk, node: SyntaxNode): void {
  const name = node.childForFieldName('name')?.text ?? node.namedChildren[0]?.text ?? ''
  const body = node.childForFieldName('body') ?? node.namedChildren.at(-1) ?? null
  const start = walk.invocations.length
  if (body) visit(walk, body, [])
  const calls = walk.invocations.slice(start).filter((i) => i.words[0]?.value === name)
  const spawns = calls.length > 0 && (calls.some((c) => c.pipedFrom.length > 0) || calls.length > 1 || /&/.test(body?.text ?? ''))
  if (spawns) structure(walk, node, 'shell.critical.fork-bomb', `The function ${name} calls itself in parallel: a fork bomb.`, 'deny')
  else structure(walk, node, 'shell.function', `Defines the function ${name}; it can shadow a known program.`)
}

function visitWords(walk: Walk, node: SyntaxNode): void {
  if (node.type === 'command_substitution' || node.type === 'process_substitution') {
    structure(walk, node, 'shell.substitution', 'Runs a command inside another ($(…), `…` or <(…)).')
    visitBody(walk, node)
    return
  }
  for (const child of node.namedChildren) if (child) visitWords(walk, child)
}

function visitSubstitutions(walk: Walk, word: Word): void {
  for (const sub of word.substitutions) visitBody(walk, sub)
}

/** The statements inside `$(…)` or `<(…)`; a job left running at its end asks as at the top level. */
function visitBody(walk: Walk, sub: SyntaxNode): void {
  const children = sub.children
  const start = walk.invocations.length
  for (const [k, child] of children.entries()) {
    if (!child) continue
    if (child.type === '&' && !followedByStatement(children, k)) structure(walk, child, 'shell.background', BACKGROUND_MESSAGE)
    else if (child.type === '&') markBackground(walk, children, k)
    else if (child.isNamed) visit(walk, child, [])
  }
  for (const inv of walk.invocations.slice(start)) inv.inSubstitution = true
}

/** The commands of the statement before the `&` at k (for --explain). */
function markBackground(walk: Walk, children: ReadonlyArray<SyntaxNode | null>, k: number): void {
  const job = children.slice(0, k).reverse().find((c) => c !== null && c.isNamed && isStatement(c))
  if (!job) return
  for (const inv of walk.invocations) if (inv.node.startIndex >= job.startIndex && inv.node.endIndex <= job.endIndex) inv.background = true
}
