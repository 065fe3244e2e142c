import type { SyntaxNode } from './parser'

/**
 * What a file redirection does to its target: the file is read, written, or both, like a file
 * operand of the same command (docs/risk.md, "Redirections, hard links, special files").
 */
export interface RedirectEffect {
  reads: boolean
  writes: boolean
  /** `<&WORD`, `>&WORD`: a descriptor copy when WORD is a number (or `N-`, a move); otherwise WORD is a file. */
  duplicates?: boolean
  /** `<&-`, `>&-`: closes a descriptor; there is no file. */
  closes?: boolean
}

const READ: RedirectEffect = { reads: true, writes: false }
const WRITE: RedirectEffect = { reads: false, writes: true }
const CLOSE: RedirectEffect = { reads: false, writes: false, closes: true }

/**
 * Every file redirection operator the analyzer knows (bash's, as tree-sitter-bash reads them).
 * Known-only (docs/risk.md): an operator not named here asks. Heredocs and here-strings are not
 * here: their text is literal, judged where it is fed (analyzer's literalStdin).
 */
export const REDIRECT_OPERATORS: ReadonlyMap<string, RedirectEffect> = new Map<string, RedirectEffect>([
  ['<', READ],
  ['<>', { reads: true, writes: true }],
  ['>', WRITE],
  ['>>', WRITE],
  ['>|', WRITE],
  ['&>', WRITE],
  ['&>>', WRITE],
  // bash: `>&file` and `1>&file` write file (stdout and stderr); `<&file` is an error, judged as the read it names.
  ['>&', { ...WRITE, duplicates: true }],
  ['<&', { ...READ, duplicates: true }],
  ['>&-', CLOSE],
  ['<&-', CLOSE]
])

/**
 * The operator as written, whatever tree-sitter made of it: it reads `<>` as `<` followed by an
 * ERROR node holding `>`, so the operator is every token between the descriptor and the target.
 */
export function redirectOperator(node: SyntaxNode, destination: SyntaxNode | null): string {
  let operator = ''
  for (const child of node.children) {
    if (!child || child.type === 'file_descriptor') continue
    if (destination && child.startIndex >= destination.startIndex) break
    operator += child.text
  }
  return operator.replace(/\s+/g, '')
}

/** `>&2`, `<&3`, `<&3-`, `>&-`: the word names a descriptor, not a file. */
export function isDescriptorWord(value: string): boolean {
  return /^(\d+-?|-)$/.test(value)
}
