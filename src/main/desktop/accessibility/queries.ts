/**
 * Questions asked of a tree already read — pure functions, no bus: the send-text steps use these to
 * find the search field, the result rows, the chat header and the draft (docs/desktop.md).
 */
import type { AccessibleNode, AccessibleState, AccessibleWindow, AccessibilityResult } from './types'
import { failure, ok } from './types'

export interface NodeQuery {
  /** Role names, any of them ("table cell", "list item", "page tab"). */
  roles?: string[]
  /** The exact name. */
  name?: string
  /** Every one of these states. */
  states?: AccessibleState[]
  /** Only widgets whose text can be set. */
  editableText?: boolean
  /** Only widgets that have text contents. */
  hasText?: boolean
}

/** Every node, depth first, the root first. */
export function* walkNodes(root: AccessibleNode): Generator<AccessibleNode> {
  const stack = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    yield node
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i])
  }
}

export function matchesQuery(node: AccessibleNode, query: NodeQuery): boolean {
  if (query.roles && !query.roles.includes(node.role)) return false
  if (query.name !== undefined && node.name !== query.name) return false
  if (query.states && !query.states.every((state) => node.states.includes(state))) return false
  if (query.editableText !== undefined && node.editableText !== query.editableText) return false
  if (query.hasText !== undefined && (node.text !== undefined) !== query.hasText) return false
  return true
}

export function findNodes(root: AccessibleNode, query: NodeQuery): AccessibleNode[] {
  return [...walkNodes(root)].filter((node) => matchesQuery(node, query))
}

/** The path from the root to the node with this id (both included), or undefined. */
export function pathTo(root: AccessibleNode, id: string): AccessibleNode[] | undefined {
  if (root.id === id) return [root]
  for (const child of root.children) {
    const below = pathTo(child, id)
    if (below) return [root, ...below]
  }
  return undefined
}

/** The window the query names: the exact title wins; else the one whose title contains it. */
export function pickWindow(windows: AccessibleWindow[], query: { title?: string; pid?: number }): AccessibilityResult<AccessibleWindow> {
  let candidates = query.pid === undefined ? windows : windows.filter((w) => w.pid === query.pid)
  if (query.title !== undefined) {
    const title = query.title
    const exact = candidates.filter((w) => w.title === title)
    candidates = exact.length > 0 ? exact : candidates.filter((w) => w.title.includes(title))
  }
  const asked = [query.title !== undefined ? `title "${query.title}"` : '', query.pid !== undefined ? `pid ${query.pid}` : ''].filter(Boolean).join(', ')
  if (candidates.length === 1) return ok(candidates[0])
  const listed = windows.map((w) => `"${w.title}" (${w.app}${w.pid ? ` ${w.pid}` : ''})`).join(', ') || 'none'
  if (candidates.length === 0) return failure('not_found', `no accessible window with ${asked}; windows: ${listed}`)
  // Several windows of one app with the same title are one answer only if the caller said which: refuse.
  return failure('ambiguous', `${candidates.length} windows match ${asked}: ${candidates.map((w) => `"${w.title}"`).join(', ')}`)
}
