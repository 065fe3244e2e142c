import { APICallError } from '@ai-sdk/provider'

/**
 * How providers say a prompt is too long for the model's window (docs/architecture.md,
 * "Compaction"): OpenAI's `context_length_exceeded` code ("This model's maximum context length is
 * 8192 tokens…"), vLLM's and LM Studio's variants of that sentence, Anthropic's "prompt is too long",
 * llama.cpp's "exceeds the available context size", OpenRouter's "context length", others' "input
 * token count … exceeds". Only 400 and 413 answers: a 500 is never this.
 */
const OVERFLOW_WORDS = /context[_ ]length[_ ]exceeded|maximum context length|context (length|window|size)|prompt is too long|too many (input )?tokens|input token count|reduce the length of the (messages|prompt)/i

/** The AI SDK's RetryError, known by its marker (the SDK itself is not loaded for this). */
const RETRY_MARK = Symbol.for('vercel.ai.error.AI_RetryError')

export function isContextOverflow(error: unknown): boolean {
  const last = lastErrorOf(error)
  if (!APICallError.isInstance(last)) return false
  if (last.statusCode !== 400 && last.statusCode !== 413) return false
  const code = (last.data as { error?: { code?: unknown } } | undefined)?.error?.code
  if (code === 'context_length_exceeded') return true
  return OVERFLOW_WORDS.test(`${last.message}\n${last.responseBody ?? ''}`)
}

/**
 * The window a context-overflow refusal names, when it names one: OpenAI's and vLLM's "maximum
 * context length is 8192 tokens", Anthropic's "… tokens > 200000 maximum", llama.cpp's "context
 * size (4096 tokens)". The run then plans with it (agent-loop.ts).
 */
export function windowFromOverflow(error: unknown): number | undefined {
  if (!isContextOverflow(error)) return undefined
  const last = lastErrorOf(error) as APICallError
  const text = `${last.message}\n${last.responseBody ?? ''}`
  const said = /maximum context length is (\d+)/i.exec(text) ?? /> (\d+) maximum/i.exec(text) ?? /context size \((\d+) tokens\)/i.exec(text)
  const tokens = said ? Number(said[1]) : Number.NaN
  return Number.isInteger(tokens) && tokens >= 256 ? tokens : undefined
}

function lastErrorOf(error: unknown): unknown {
  const retried = typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[RETRY_MARK] === true
  return retried ? (error as { lastError?: unknown }).lastError : error
}
