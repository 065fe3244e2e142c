import { z } from 'zod'
import { MEMORY_TEXT_MAX, MemoryScopeSchema } from '../../../shared'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { MEMORY_LABELS, type MemoryToolServices } from './common'
import { persistsTo, trusted } from '../../provenance'

/**
 * memory_save (docs/tools.md, "Memory"): remembers one fact for later conversations. A read as far
 * as risk goes: it changes nothing on the computer, only DeskClaw's own memory, every save shows in
 * the timeline with an Undo, so it runs without a question in supervised (and readonly) mode.
 */
export function createMemorySaveTool(services: MemoryToolServices) {
  return defineTool({
    name: 'memory_save',
    repeat: 'may-differ',
    description:
      'Remember one fact for later conversations: a preference, a name, a convention the user told you or you learned and will need again. ' +
      'One short, self-contained sentence per memory, in the user\'s language. Scope "global" (default) is for facts about the user; ' +
      '"workspace" for facts about the project in this workspace folder. Do not save secrets (passwords, keys). The user sees each save and can undo it.',
    shortDescription: 'Remember "text", one short self-contained fact (no secrets), for later conversations; "scope" global (about the user) or workspace.',
    category: 'memory',
    access: 'read',
    source: trusted,
    sink: persistsTo('memory', 'memory'),
    input: z.object({
      text: z.string().trim().min(1).max(MEMORY_TEXT_MAX).describe('The fact, as one self-contained sentence'),
      scope: MemoryScopeSchema.optional().describe('"global" (every conversation, default) or "workspace" (only conversations in this workspace folder)')
    }),
    summary: (args) => args.text,
    preview: (args) => ({
      title: text('title'),
      fields: [
        { label: text('memory'), value: args.text, arg: 'text' },
        { label: text('scope'), value: args.scope ?? 'global', display: text(`scope.${args.scope ?? 'global'}`) }
      ]
    }),
    messages: {
      en: { ...MEMORY_LABELS.en, title: 'Remember', 'result.saved': 'Remembered: "{text}"', 'result.known': 'Already remembered: "{text}"' },
      'zh-CN': { ...MEMORY_LABELS['zh-CN'], title: '记住', 'result.saved': '已记住：“{text}”', 'result.known': '之前已记住：“{text}”' }
    },
    run: async (args, ctx) => {
      const scope = args.scope ?? 'global'
      // The same fact twice is one memory (a model tends to save what it was just reminded of).
      const known = services.memories
        .list({ query: args.text, workspace: ctx.workspace, limit: 5 })
        .memories.find((memory) => memory.text === args.text && memory.scope === scope)
      if (known) return withDisplay(ok(`Already remembered as ${known.id}; nothing saved.`), text('result.known', { text: known.text }))
      const memory = services.memories.save({
        text: args.text,
        scope,
        ...(scope === 'workspace' ? { workspace: ctx.workspace } : {}),
        source: { conversationId: ctx.conversationId, runId: ctx.runId, callId: ctx.callId }
      })
      return withDisplay(ok(`Saved memory ${memory.id} (${scope}).`), text('result.saved', { text: memory.text }))
    }
  })
}
