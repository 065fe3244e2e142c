import type { ModelMessage } from 'ai'
import type { ModelTool } from '../providers'

/**
 * A conservative token count without a tokenizer (docs/architecture.md, "Compaction"): a CJK
 * character is about one token; other text about 3.5 characters per token in English prose and
 * fewer in code and JSON, so 3 here. Real tokenizers count less, so planning with this leaves room.
 */
export function estimateTextTokens(text: string): number {
  let wide = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    // CJK ideographs, kana, Hangul, CJK punctuation and full-width forms.
    if ((code >= 0x2e80 && code <= 0x9fff) || (code >= 0xac00 && code <= 0xd7af) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xff00 && code <= 0xffef)) wide++
  }
  return wide + Math.ceil((text.length - wide) / 3)
}

/** What a provider charges around each message and part (role, separators, ids). */
const MESSAGE_OVERHEAD = 4
/** An image as most providers count one the size of a screenshot we send (docs/desktop.md). */
const IMAGE_TOKENS = 1600

const messageSizes = new WeakMap<ModelMessage, number>()
const toolSetSizes = new WeakMap<readonly ModelTool[], number>()

/** A message's tokens, counted once per message object (the loop's messages never change in place). */
export function estimateMessageTokens(message: ModelMessage): number {
  const known = messageSizes.get(message)
  if (known !== undefined) return known
  let tokens = MESSAGE_OVERHEAD
  if (typeof message.content === 'string') tokens += estimateTextTokens(message.content)
  else {
    for (const part of message.content) {
      tokens += MESSAGE_OVERHEAD
      switch (part.type) {
        case 'text':
        case 'reasoning':
          tokens += estimateTextTokens(part.text)
          break
        case 'tool-call':
          tokens += estimateTextTokens(part.toolName) + estimateTextTokens(typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {}))
          break
        case 'tool-result':
          tokens += estimateTextTokens(toolResultText(part.output))
          break
        case 'image':
        case 'file':
          tokens += IMAGE_TOKENS
          break
        default:
          tokens += estimateTextTokens(JSON.stringify(part))
      }
    }
  }
  messageSizes.set(message, tokens)
  return tokens
}

/** The text of a tool result's output, whatever its shape. */
export function toolResultText(output: unknown): string {
  const { type, value } = (output ?? {}) as { type?: string; value?: unknown }
  if ((type === 'text' || type === 'error-text') && typeof value === 'string') return value
  return JSON.stringify(value ?? output ?? '')
}

/** The tool declarations' tokens (names, descriptions, JSON schemas), counted once per tool set. */
export function estimateToolSetTokens(tools: readonly ModelTool[]): number {
  const known = toolSetSizes.get(tools)
  if (known !== undefined) return known
  let tokens = 0
  for (const declared of tools) {
    tokens += MESSAGE_OVERHEAD + estimateTextTokens(declared.name) + estimateTextTokens(declared.description) + estimateTextTokens(JSON.stringify(declared.inputSchema))
  }
  toolSetSizes.set(tools, tokens)
  return tokens
}
