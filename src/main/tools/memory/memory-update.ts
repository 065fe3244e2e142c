import { z } from 'zod'
import { MEMORY_TEXT_MAX } from '../../../shared'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { MEMORY_LABELS, notFound, type MemoryToolServices } from './common'
import { persistsTo, trusted } from '../../provenance'

/**
 * memory_update (docs/tools.md, "Memory"): replaces a memory's text. A write: it changes what the
 * user may rely on (a memory they saved or checked in the Memory panel), with no undo in the
 * timeline, so it asks in supervised mode and is refused in readonly mode.
 */
export function createMemoryUpdateTool(services: MemoryToolServices) {
  return defineTool({
    name: 'memory_update',
    repeat: 'may-differ',
    description: 'Replace the text of one saved memory (its id from memory_search or the memories you were given), e.g. when a fact changed. The user is asked first.',
    shortDescription: 'Replace the text of the saved memory "id" with "text"; asks first.',
    category: 'memory',
    access: 'write',
    source: trusted,
    sink: persistsTo('memory', 'memory'),
    input: z.object({
      id: z.string().trim().min(1).max(64).describe('The memory\'s id (mem_…)'),
      text: z.string().trim().min(1).max(MEMORY_TEXT_MAX).describe('The new text, one self-contained sentence')
    }),
    summary: (args) => `${args.id}: ${args.text}`,
    preview: (args) => {
      const memory = services.memories.get(args.id)
      if (!memory) throw new Error(`No memory has the id ${args.id}.`)
      return {
        title: text('title'),
        fields: [
          { label: text('memory'), value: memory.text },
          { label: text('newText'), value: args.text, arg: 'text' }
        ]
      }
    },
    messages: {
      en: { ...MEMORY_LABELS.en, title: 'Change a memory', 'result.updated': 'Memory changed to "{text}"' },
      'zh-CN': { ...MEMORY_LABELS['zh-CN'], title: '修改记忆', 'result.updated': '记忆已改为“{text}”' }
    },
    run: async (args) => {
      const memory = services.memories.update(args.id, { text: args.text })
      if (!memory) return notFound(args.id)
      return withDisplay(ok(`Memory ${memory.id} changed.`), text('result.updated', { text: memory.text }))
    }
  })
}
