import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { MEMORY_LABELS, notFound, type MemoryToolServices } from './common'
import { noSink, trusted } from '../../provenance'

/**
 * memory_forget (docs/tools.md, "Memory"): deletes a memory. A write on the user's data that
 * cannot be undone, so it asks in supervised mode (the question shows the memory) and is refused
 * in readonly mode.
 */
export function createMemoryForgetTool(services: MemoryToolServices) {
  return defineTool({
    name: 'memory_forget',
    repeat: 'may-differ',
    description: 'Delete one saved memory (its id from memory_search or the memories you were given), e.g. when the user asks you to forget it or it is wrong. The user is asked first.',
    shortDescription: 'Delete the saved memory "id"; asks first.',
    category: 'memory',
    access: 'write',
    source: trusted,
    sink: noSink,
    input: z.object({ id: z.string().trim().min(1).max(64).describe('The memory\'s id (mem_…)') }),
    summary: (args) => args.id,
    preview: (args) => {
      const memory = services.memories.get(args.id)
      if (!memory) throw new Error(`No memory has the id ${args.id}.`)
      return { title: text('title'), fields: [{ label: text('memory'), value: memory.text }] }
    },
    messages: {
      en: { ...MEMORY_LABELS.en, title: 'Forget a memory', 'result.forgotten': 'Forgot "{text}"' },
      'zh-CN': { ...MEMORY_LABELS['zh-CN'], title: '删除记忆', 'result.forgotten': '已忘记“{text}”' }
    },
    run: async (args) => {
      const memory = services.memories.get(args.id)
      if (!memory || !services.memories.forget(args.id)) return notFound(args.id)
      return withDisplay(ok(`Memory ${args.id} forgotten.`), text('result.forgotten', { text: memory.text }))
    }
  })
}
