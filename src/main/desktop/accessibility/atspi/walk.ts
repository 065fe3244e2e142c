/**
 * Breadth-first walk of an accessible subtree with a node budget and a deadline, a batch of nodes
 * in flight at a time: a large or frozen application yields a truncated tree, not a hang.
 */
import { ok, type AccessibilityResult, type AccessibleNode, type AccessibleTree, type WalkOptions } from '../types'
import type { NodeReader, ObjectRef } from './node-reader'

const DEFAULT_MAX_NODES = 2000
const DEFAULT_TIMEOUT_MS = 5000
/** Nodes read at once: each is 5–8 calls, answered by one application thread. */
const BATCH = 24

interface Pending {
  ref: ObjectRef
  depth: number
  parent: AccessibleNode | undefined
}

export async function walkTree(reader: NodeReader, rootRef: ObjectRef, options: WalkOptions = {}): Promise<AccessibilityResult<AccessibleTree>> {
  const started = Date.now()
  const maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY
  const deadline = started + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS)

  const first = await reader.read(rootRef, maxDepth > 0)
  if (!first.ok) return first
  const root = first.value.node
  let visited = 1
  let truncated: AccessibleTree['truncated'] = false
  let queue: Pending[] = maxDepth > 0 ? first.value.childRefs.map((ref) => ({ ref, depth: 1, parent: root })) : []

  while (queue.length > 0) {
    if (Date.now() > deadline) {
      truncated = 'deadline'
      break
    }
    if (visited >= maxNodes) {
      truncated = 'budget'
      break
    }
    const batch = queue.splice(0, Math.min(BATCH, maxNodes - visited))
    const read = await Promise.all(batch.map((item) => reader.read(item.ref, item.depth < maxDepth)))
    const next: Pending[] = []
    read.forEach((result, i) => {
      // A child that vanished between listing and reading is simply not there any more.
      if (!result.ok) return
      const { node, childRefs } = result.value
      visited++
      batch[i].parent?.children.push(node)
      const hidden = options.showingOnly && !node.states.includes('showing')
      if (!hidden) next.push(...childRefs.map((ref) => ({ ref, depth: batch[i].depth + 1, parent: node })))
    })
    queue = [...queue, ...next]
  }
  return ok({ root, visited, truncated, elapsedMs: Date.now() - started })
}
