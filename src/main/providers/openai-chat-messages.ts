import type { AssistantContent, ModelMessage, ToolContent, UserContent } from 'ai'

/** A message of the Chat Completions API (what `messages` holds in a request). */
export type ChatMessage = Record<string, unknown> & { role: 'system' | 'user' | 'assistant' | 'tool' }

/**
 * The loop's messages (the AI SDK's ModelMessage, as the store keeps them) in the Chat Completions
 * format, as @ai-sdk/openai-compatible wrote them before the loop spoke the wire itself
 * (docs/architecture.md, "Model clients"): images as data URLs, text files inline, reasoning as
 * `reasoning_content`, tool calls with their arguments as JSON text, one `tool` message per result.
 */
export function toChatMessages(system: string, messages: readonly ModelMessage[]): ChatMessage[] {
  const out: ChatMessage[] = system ? [{ role: 'system', content: system }] : []
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: message.content })
        break
      case 'user':
        out.push({ role: 'user', content: userContent(message.content) })
        break
      case 'assistant':
        out.push(assistantMessage(message.content))
        break
      case 'tool':
        for (const result of toolResults(message.content)) out.push(result)
        break
    }
  }
  return out
}

function userContent(content: UserContent): unknown {
  if (typeof content === 'string') return content
  if (content.length === 1 && content[0]!.type === 'text') return content[0]!.text
  return content.map((part) => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text }
      case 'image':
        return { type: 'image_url', image_url: { url: dataUrl(part.image, part.mediaType ?? 'image/jpeg') } }
      case 'file':
        if (part.mediaType.startsWith('image/')) {
          return { type: 'image_url', image_url: { url: dataUrl(part.data, part.mediaType === 'image/*' ? 'image/jpeg' : part.mediaType) } }
        }
        if (part.mediaType.startsWith('text/')) return { type: 'text', text: textOf(part.data) }
        if (part.mediaType === 'application/pdf') {
          return { type: 'file', file: { filename: part.filename ?? 'document.pdf', file_data: dataUrl(part.data, 'application/pdf') } }
        }
        throw new Error(`Files of type ${part.mediaType} cannot be sent to an OpenAI-compatible server.`)
    }
  })
}

function assistantMessage(content: AssistantContent): ChatMessage {
  if (typeof content === 'string') return { role: 'assistant', content }
  let text = ''
  let reasoning = ''
  const calls: unknown[] = []
  for (const part of content) {
    if (part.type === 'text') text += part.text
    else if (part.type === 'reasoning') reasoning += part.text
    else if (part.type === 'tool-call') {
      // Gemini's OpenAI-compatible API wants its thought signature back with the call.
      const signature = (part.providerOptions?.google as { thoughtSignature?: unknown } | undefined)?.thoughtSignature
      calls.push({
        id: part.toolCallId,
        type: 'function',
        function: { name: part.toolName, arguments: typeof part.input === 'string' ? part.input : JSON.stringify(part.input) },
        ...(signature ? { extra_content: { google: { thought_signature: String(signature) } } } : {})
      })
    }
  }
  return {
    role: 'assistant',
    content: calls.length > 0 ? text || null : text,
    ...(reasoning ? { reasoning_content: reasoning } : {}),
    ...(calls.length > 0 ? { tool_calls: calls } : {})
  }
}

function toolResults(content: ToolContent): ChatMessage[] {
  const out: ChatMessage[] = []
  for (const part of content) {
    if (part.type !== 'tool-result') continue
    const output = part.output
    let text: string
    switch (output.type) {
      case 'text':
      case 'error-text':
        text = output.value
        break
      case 'execution-denied':
        text = output.reason ?? 'Tool call execution denied.'
        break
      default:
        text = JSON.stringify(output.value)
    }
    out.push({ role: 'tool', tool_call_id: part.toolCallId, content: text })
  }
  return out
}

type Data = string | Uint8Array | ArrayBuffer | Buffer | URL

/** A URL as it is; bytes (or base64 text) as a data URL of that media type. */
function dataUrl(data: Data, mediaType: string): string {
  if (data instanceof URL) return data.toString()
  if (typeof data === 'string') {
    if (/^(https?:|data:)/i.test(data)) return data
    return `data:${mediaType};base64,${data}`
  }
  return `data:${mediaType};base64,${bytesOf(data).toString('base64')}`
}

function textOf(data: Data): string {
  if (data instanceof URL) return data.toString()
  if (typeof data === 'string') return Buffer.from(data, 'base64').toString('utf8')
  return bytesOf(data).toString('utf8')
}

function bytesOf(data: Uint8Array | ArrayBuffer): Buffer {
  return data instanceof ArrayBuffer ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength)
}
