import type { ModelMessage } from 'ai'
import { shownArgs, type ToolRegistry } from '../tools'

/**
 * The model's messages as they are stored for later turns: each tool call's input as its tool
 * shows it, secrets replaced (docs/tools.md, "Secrets in arguments"). The run itself keeps the
 * originals in memory.
 */
export function messagesForStore(messages: ModelMessage[], registry: ToolRegistry): ModelMessage[] {
  return messages.map((message) => {
    if (message.role !== 'assistant' || typeof message.content === 'string') return message
    let changed = false
    const content = message.content.map((part) => {
      if (part.type !== 'tool-call') return part
      const shown = shownArgs(registry.get(part.toolName), part.input)
      if (shown === part.input) return part
      changed = true
      return { ...part, input: shown }
    })
    return changed ? { ...message, content } : message
  })
}
