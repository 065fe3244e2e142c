import type { Memory, MemoryFilter, MemoryScope } from '../../../shared'
import { fail, text, withDisplay, type ToolOutput } from '../define-tool'

/**
 * What the memory tools need (docs/tools.md, "Memory"): the store's memories, as the app hands
 * them over. Declared here, so the pack depends on no store code.
 */
export interface MemoryBook {
  save(memory: { text: string; scope: MemoryScope; workspace?: string; source?: { conversationId: string; runId?: string; callId?: string } }): Memory
  get(id: string): Memory | null
  update(id: string, change: { text?: string; scope?: MemoryScope; workspace?: string }): Memory | null
  forget(id: string): boolean
  list(options: { query?: string; filter?: MemoryFilter; workspace?: string; limit?: number }): { memories: Memory[]; total: number }
}

export interface MemoryToolServices {
  memories: MemoryBook
}

/** Labels every memory tool's preview uses. */
export const MEMORY_LABELS = {
  en: { memory: 'Memory', newText: 'New text', scope: 'Kept for', 'scope.global': 'every conversation', 'scope.workspace': 'this workspace only', 'result.notFound': 'No memory has the id {id}.' },
  'zh-CN': { memory: '记忆', newText: '新内容', scope: '适用范围', 'scope.global': '所有对话', 'scope.workspace': '仅此工作区', 'result.notFound': '没有 id 为 {id} 的记忆。' }
} as const

/** One memory as the model reads it: id (to update or forget it), scope, text and when it was saved. */
export function memoryLine(memory: Memory): string {
  const day = new Date(memory.updatedAt).toISOString().slice(0, 10)
  return `- [${memory.id}] (${memory.scope}, ${day}) ${memory.text}`
}

export function notFound(id: string): ToolOutput {
  return withDisplay(fail(`No memory has the id ${id}. Search with memory_search for its id.`), text('result.notFound', { id }))
}
