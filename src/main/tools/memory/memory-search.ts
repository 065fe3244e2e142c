import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { MEMORY_LABELS, memoryLine, type MemoryToolServices } from './common'
import { noSink, untrusted } from '../../provenance'

/** memory_search (docs/tools.md, "Memory"): finds saved memories by words, Chinese or English; global ones and this workspace's. */
export function createMemorySearchTool(services: MemoryToolServices) {
  return defineTool({
    name: 'memory_search',
    repeat: 'may-differ',
    description:
      'Search what you remembered in earlier conversations (memory_save), by words in any language: a question or keywords. ' +
      'Returns the best matches with their ids (for memory_update and memory_forget), global memories and this workspace\'s.',
    shortDescription: 'Search saved memories by "query" (words in any language) and get the best matches with their ids.',
    category: 'memory',
    access: 'read',
    source: untrusted('memory'),
    sink: noSink,
    input: z.object({
      query: z.string().trim().min(1).max(500).describe('Words to look for, or the question to answer'),
      limit: z.number().int().min(1).max(20).optional().describe('At most this many results (default 5)')
    }),
    summary: (args) => args.query,
    preview: (args) => ({ title: text('title'), fields: [{ label: text('query'), value: args.query, arg: 'query' }] }),
    messages: {
      en: { ...MEMORY_LABELS.en, title: 'Search memories', query: 'Search for', 'result.found': '{count} memories found', 'result.none': 'No memory matches' },
      'zh-CN': { ...MEMORY_LABELS['zh-CN'], title: '搜索记忆', query: '搜索', 'result.found': '找到 {count} 条记忆', 'result.none': '没有匹配的记忆' }
    },
    run: async (args, ctx) => {
      const { memories } = services.memories.list({ query: args.query, workspace: ctx.workspace, limit: args.limit ?? 5 })
      if (memories.length === 0) return withDisplay(ok('No memory matches.'), text('result.none'))
      return withDisplay(ok(memories.map(memoryLine).join('\n')), text('result.found', { count: memories.length }))
    }
  })
}
