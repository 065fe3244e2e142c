/**
 * `deskclaw desktop tree --window TITLE [--json] [--depth N]` (docs/cli.md, docs/desktop.md
 * "Accessibility backends"): what a window's accessibility tree holds, for people checking whether
 * an app can be driven by its widgets rather than by OCR. A failure is one line with the reason.
 */
import { accessibilityBackend, describeAccessibilityFailure, formatAccessibleTree } from '../desktop/accessibility'
import type { DesktopArgs } from './args'
import { EXIT } from './help'

/** Enough for a chat client's whole window (HexChat: ~130 nodes on screen, ~250 with its menus). */
const TREE_NODE_BUDGET = 5000
const TREE_TIMEOUT_MS = 15_000

export async function accessibleTreeCommand(args: DesktopArgs): Promise<number> {
  const backend = accessibilityBackend()
  try {
    const window = await backend.findWindow({ title: args.window })
    if (!window.ok) return fail(describeAccessibilityFailure(window))
    const tree = await backend.tree(window.value.id, { maxDepth: args.depth, maxNodes: TREE_NODE_BUDGET, timeoutMs: TREE_TIMEOUT_MS })
    if (!tree.ok) return fail(describeAccessibilityFailure(tree))
    if (args.json) {
      process.stdout.write(JSON.stringify({ window: window.value, ...tree.value }, null, 2) + '\n')
    } else {
      const w = window.value
      process.stdout.write(`${w.title} — ${w.app}${w.pid ? ` (pid ${w.pid})` : ''}\n${formatAccessibleTree(tree.value)}`)
    }
    return EXIT.done
  } finally {
    await backend.close()
  }
}

function fail(line: string): number {
  process.stderr.write(`deskclaw: ${line}\n`)
  return EXIT.failed
}
