import { createHash } from 'node:crypto'
import type { AnyTool } from './define-tool'

/**
 * Where tools come from (docs/architecture.md, "Adding a tool source"): a built-in pack is a source
 * whose tools never change; a dynamic source (an MCP server) may add and remove tools at run time
 * and says so through `onChange`. The registry reads `tools()` again after every change.
 */
export interface ToolSource {
  /** Unique among the registry's sources. */
  readonly id: string
  /** Prefix of the source's tool names, e.g. `mcp__github` gives `mcp__github__create_issue`. Packs have none. */
  readonly namespace?: string
  tools(): readonly AnyTool[]
  onChange?(listener: () => void): () => void
}

/** A built-in pack: a fixed list of tools built once by the pack's factory with its services. */
export function toolPack(id: string, tools: readonly AnyTool[]): ToolSource {
  return { id, tools: () => tools }
}

/**
 * A source whose tools are set from outside (what an MCP client does when a server's list changes;
 * tests use it to add and remove tools during a conversation).
 */
export class MutableToolSource implements ToolSource {
  private current: AnyTool[] = []
  private readonly listeners = new Set<() => void>()

  constructor(
    readonly id: string,
    readonly namespace?: string
  ) {}

  tools(): readonly AnyTool[] {
    return this.current
  }

  set(tools: AnyTool[]): void {
    this.current = [...tools]
    for (const listener of [...this.listeners]) listener()
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }
}

/**
 * `namespace__name`, with anything a model API refuses replaced by `_` and, when too long, cut to
 * 64 characters with a short hash so two long names stay apart.
 */
export function namespacedToolName(namespace: string, name: string): string {
  const full = `${namespace}__${name}`.replace(/[^A-Za-z0-9_-]/g, '_')
  if (full.length <= 64) return full
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 8)
  return `${full.slice(0, 55)}_${hash}`
}
