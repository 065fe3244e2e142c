/**
 * The memory tools (docs/tools.md, "Memory"): save (runs without asking, undone from the timeline),
 * search, update and forget (these two ask in supervised mode), over the store's memories.
 */
import { toolPack, type ToolSource } from '../source'
import type { MemoryToolServices } from './common'
import { createMemoryForgetTool } from './memory-forget'
import { createMemorySaveTool } from './memory-save'
import { createMemorySearchTool } from './memory-search'
import { createMemoryUpdateTool } from './memory-update'

export type { MemoryBook, MemoryToolServices } from './common'

export function createMemoryTools(services: MemoryToolServices): ToolSource {
  return toolPack('memory', [
    createMemorySaveTool(services),
    createMemorySearchTool(services),
    createMemoryUpdateTool(services),
    createMemoryForgetTool(services)
  ])
}
