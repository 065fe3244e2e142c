/** The tree as indented text for people (`deskclaw desktop tree`): role, name, states, text, extents. */
import type { AccessibleNode, AccessibleTree } from './types'

const SHOWN_STATES = new Set(['focused', 'selected', 'editable', 'showing'])

function nodeLine(node: AccessibleNode): string {
  const parts = [`[${node.role}]`]
  if (node.name) parts.push(JSON.stringify(node.name))
  // A button's Text is its label again, or empty: only text widgets' contents are news.
  if (node.text !== undefined && node.text !== node.name && (node.text !== '' || node.editableText)) parts.push(`text=${JSON.stringify(node.text.length > 200 ? `${node.text.slice(0, 200)}…` : node.text)}`)
  const states = node.states.filter((s) => SHOWN_STATES.has(s))
  if (states.length > 0) parts.push(`{${states.join(',')}}`)
  if (node.actions.length > 0) parts.push(`actions=${node.actions.join('|')}`)
  if (node.editableText) parts.push('settable')
  if (node.extents) parts.push(`@${node.extents.width}×${node.extents.height}+${node.extents.x}+${node.extents.y}`)
  if (node.childCount > node.children.length) parts.push(`(+${node.childCount - node.children.length} not read)`)
  return parts.join(' ')
}

export function formatAccessibleTree(tree: AccessibleTree): string {
  const lines: string[] = []
  const visit = (node: AccessibleNode, depth: number): void => {
    lines.push(`${'  '.repeat(depth)}${nodeLine(node)}`)
    for (const child of node.children) visit(child, depth + 1)
  }
  visit(tree.root, 0)
  const cut = tree.truncated ? `, stopped early (${tree.truncated === 'budget' ? 'node budget' : 'deadline'})` : ''
  lines.push(`${tree.visited} nodes in ${tree.elapsedMs} ms${cut}`)
  return lines.join('\n') + '\n'
}
