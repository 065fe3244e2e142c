import { errorMessage } from '../../shared'
import { memoryBlock } from '../agent'
import type { MemoryStore } from '../store'

/** How many of the best matches are weighed against the budget (docs/tools.md, "Memory"). */
const CANDIDATES = 8

/**
 * The memory block a run is offered: the best matches for the user's message among the global
 * memories and this workspace's, within `budgetChars` (setting memoryContextChars; 0: none).
 */
export function memoryOffer(memories: MemoryStore, prompt: string, workspace: string, budgetChars: number): string | null {
  if (budgetChars <= 0) return null
  try {
    return memoryBlock(memories.relevant(prompt, workspace, CANDIDATES), budgetChars)
  } catch (error) {
    // A memory index that cannot be read costs the run its memories, never the run.
    console.warn(`[deskclaw] memories could not be searched: ${errorMessage(error)}`)
    return null
  }
}
