/**
 * What tree-sitter read (docs/risk.md, "A second, independent parser"): each `command` node's
 * name and arguments, and the comments, mapped back to offsets of the original text — the view
 * the cross-check compares with bash's.
 */
import type { Language } from 'web-tree-sitter'
import type { Span } from './bash-lexer'
import type { SyntaxNode } from './parser'
import { originalRange, type PreparedSource } from './source'

/** What tree-sitter read, mapped back to offsets of the original text. */
export interface TreeSitterView {
  hasError: boolean
  /** Each `command` node's name and arguments. */
  commands: Span[][]
  comments: Span[]
}

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
