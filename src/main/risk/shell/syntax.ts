/** What kind of tree-sitter-bash node a node is: statements, words, errors (used by the walker and the checks). */
import { basenameOf } from './critical'
import type { SyntaxNode } from './parser'
import { FETCHERS } from './programs'

const STATEMENTS = new Set([
  'command', 'pipeline', 'list', 'redirected_statement', 'subshell', 'compound_statement', 'if_statement',
  'while_statement', 'for_statement', 'c_style_for_statement', 'case_statement', 'function_definition',
  'negated_command', 'variable_assignment', 'variable_assignments', 'declaration_command', 'unset_command',
  'test_command', 'do_group', 'else_clause', 'elif_clause', 'case_item'
])
export const isStatement = (node: SyntaxNode) => STATEMENTS.has(node.type)

export const WORD_NODES = new Set([
  'word', 'string', 'raw_string', 'ansi_c_string', 'translated_string', 'concatenation', 'simple_expansion',
  'expansion', 'command_substitution', 'process_substitution', 'arithmetic_expansion', 'number', 'brace_expression',
  'string_content', 'heredoc_body', 'variable_name', 'test_operator', 'binary_expression', 'unary_expression',
  'parenthesized_expression', 'postfix_expression', 'ternary_expression', 'regex', 'extglob_pattern', 'special_variable_name',
  'file_descriptor', 'heredoc_content'
])
export const isWordNode = (node: SyntaxNode) => WORD_NODES.has(node.type)

/** A statement follows child k of a list (`a & b`): the job started at k is not the command's last word. */
export function followedByStatement(children: ReadonlyArray<SyntaxNode | null>, k: number): boolean {
  return children.slice(k + 1).some((c) => c !== null && c.isNamed && isStatement(c))
}

/** A download program runs somewhere inside the node (`$(curl …)`). */
export function containsFetcher(node: SyntaxNode): boolean {
  if (node.type === 'command_name') return FETCHERS.has(basenameOf(node.text).toLowerCase())
  return node.namedChildren.some((child) => child !== null && containsFetcher(child))
}

export function findErrorNode(node: SyntaxNode): SyntaxNode | null {
  if (node.type === 'ERROR' || node.isMissing) return node
  for (const child of node.children) {
    if (!child || !child.hasError) continue
    const found = findErrorNode(child)
    if (found) return found
  }
  return null
}

/**
 * `$(…)` or backticks inside an array subscript (`a[$(id)]`), in any quoting: bash evaluates it
 * when the word is used arithmetically (`[[ x -eq 1 ]]`, `test -v`, `let`, `(( ))`).
 */
export function hasArithmeticSubscriptCode(text: string): boolean {
  return /\[[^\]]*(\$\(|`)/.test(text)
}
