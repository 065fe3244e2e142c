import { APICallError } from '@ai-sdk/provider'
import type { AssistantContent, ModelMessage } from 'ai'
import type { Usage } from '../../shared'
import type { ModelClient, ModelFinishReason, ModelTool, ModelTurnRequest, ModelTurnResult } from './model-client'
import { linkedAbort } from './linked-abort'
import { withModelRetries } from './model-retries'
import { toChatMessages } from './openai-chat-messages'
import { readSseData } from './sse-events'

export interface OpenAIChatClientOptions {
  baseURL: string
  apiKey?: string
  model: string
  fetch: typeof globalThis.fetch
}

/** A tool call being streamed: its argument pieces, joined once when the turn ends. */
interface CallInProgress {
  id: string
  /** The id the server gave it, if any (a generated one until then). */
  ownId?: string
  name: string
  pieces: string[]
  signature?: string
}

type ToolCallDelta = NonNullable<NonNullable<NonNullable<NonNullable<Chunk['choices']>[number]['delta']>['tool_calls']>>[number]

/**
 * The tool calls of one streamed turn, built from their deltas (docs/architecture.md, "Model
 * clients"). A delta belongs to the call at its `index` — unless it brings an id other than that
 * call's: then it starts a new call (Ollama sends parallel calls all at index 0, each with its own
 * id). A delta without an index starts a new call when it brings a new id, and otherwise continues
 * the last call (servers that send no index at all).
 */
class StreamedCalls {
  readonly list: CallInProgress[] = []
  private readonly byIndex = new Map<number, CallInProgress>()

  take(piece: ToolCallDelta): void {
    const id = piece.id || undefined
    let call = piece.index === undefined ? this.list.at(-1) : this.byIndex.get(piece.index)
    if (!call || (id !== undefined && call.ownId !== undefined && call.ownId !== id)) {
      call = { id: id ?? `call_${this.list.length}`, name: '', pieces: [] }
      this.list.push(call)
    }
    if (piece.index !== undefined) this.byIndex.set(piece.index, call)
    if (id !== undefined) call.id = call.ownId = id
    if (piece.function?.name) call.name = piece.function.name
    if (piece.function?.arguments) call.pieces.push(piece.function.arguments)
    const signature = piece.extra_content?.google?.thought_signature
    if (signature) call.signature = signature
  }
}

/** An `error:` field's value: JSON (an error object, or one wrapped in `error`) or plain text. */
function errorFieldOf(value: string): NonNullable<Chunk['error']> {
  try {
    const parsed = JSON.parse(value) as { error?: Chunk['error'] } | string | null
    if (typeof parsed === 'string') return parsed
    if (parsed && typeof parsed === 'object') return parsed.error ?? (parsed as NonNullable<Chunk['error']>)
  } catch {
    // Not JSON: the text is the message.
  }
  return value.trim() || 'the server reported an error in the stream'
}

/** What one chunk of a Chat Completions stream may hold (nothing is assumed present). */
interface Chunk {
  error?: { message?: unknown } | string
  usage?: WireUsage | null
  choices?: Array<{
    finish_reason?: string | null
    delta?: {
      content?: unknown
      reasoning_content?: string | null
      reasoning?: string | null
      tool_calls?: Array<{
        index?: number
        id?: string | null
        function?: { name?: string | null; arguments?: string | null }
        extra_content?: { google?: { thought_signature?: string | null } }
      }> | null
    } | null
  }>
}

interface WireUsage {
  prompt_tokens?: number | null
  completion_tokens?: number | null
  total_tokens?: number | null
  prompt_tokens_details?: { cached_tokens?: number | null } | null
  completion_tokens_details?: { reasoning_tokens?: number | null } | null
}

/**
 * The OpenAI Chat Completions wire format, spoken directly (docs/architecture.md, "Model clients"):
 * one POST with `stream: true`, the server-sent events read in a loop and each chunk `JSON.parse`d —
 * no schema validation per chunk, no chain of web streams, no prompt standardisation per request,
 * which together were most of the loop's cost per tool round trip (docs/benchmarks.md, "Agent loop").
 * Tool-call arguments arrive in pieces and are joined once per call. HTTP errors are the AI SDK's
 * APICallError (status, the server's message, retryable or not), so describeModelError and the
 * retries read them as before.
 */
export class OpenAIChatClient implements ModelClient {
  readonly provider = 'openai-compatible.chat'
  readonly modelId: string
  private readonly url: string
  private readonly headers: Record<string, string>
  /** Keyed by the registry's declarations array, which stays the same until a tool source changes. */
  private readonly toolsJsonCache = new WeakMap<readonly ModelTool[], string>()

  constructor(private readonly options: OpenAIChatClientOptions) {
    this.modelId = options.model
    this.url = `${options.baseURL.replace(/\/+$/, '')}/chat/completions`
    this.headers = {
      'content-type': 'application/json',
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {})
    }
  }

  async streamTurn(request: ModelTurnRequest): Promise<ModelTurnResult> {
    const body = {
      model: this.options.model,
      messages: toChatMessages(request.system, request.messages),
      ...(request.maxOutputTokens !== undefined ? { max_tokens: request.maxOutputTokens } : {}),
      stream: true,
      // Without it these servers send no token counts in streams.
      stream_options: { include_usage: true }
    }
    // The tools are the same on every request of a run (and of the next, until a tool source
    // changes): their JSON is written once and spliced in, not serialised again per request.
    const text = request.tools.length > 0 ? `${JSON.stringify(body).slice(0, -1)},"tools":${this.toolsJson(request.tools)}}` : JSON.stringify(body)
    // Ending early on our side (a part that could not be taken: the disk is full) closes the connection too.
    const stop = linkedAbort(request.signal)
    try {
      const response = await withModelRetries(() => this.post(text, body, stop.signal), request)
      return await this.readTurn(response, body, request)
    } catch (error) {
      stop.abort()
      throw error
    } finally {
      stop.dispose()
    }
  }

  private toolsJson(tools: readonly ModelTool[]): string {
    let json = this.toolsJsonCache.get(tools)
    if (json === undefined) {
      json = JSON.stringify(tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } })))
      this.toolsJsonCache.set(tools, json)
    }
    return json
  }

  private async post(text: string, body: object, signal: AbortSignal): Promise<Response> {
    let response: Response
    try {
      response = await this.options.fetch(this.url, { method: 'POST', headers: this.headers, body: text, signal })
    } catch (error) {
      throw connectionError(error, this.url, body)
    }
    if (response.ok && response.body) return response
    const responseBody = await response.text().catch(() => '')
    throw new APICallError({
      message: serverMessage(responseBody) ?? response.statusText,
      url: this.url,
      requestBodyValues: body,
      statusCode: response.status,
      responseHeaders: headersOf(response.headers),
      responseBody
    })
  }

  private async readTurn(response: Response, body: object, request: ModelTurnRequest): Promise<ModelTurnResult> {
    const pieces: string[] = []
    const reasoning: string[] = []
    const calls = new StreamedCalls()
    let usage: WireUsage | null = null
    let finish: string | null = null
    // Status 200 and a body that is not what the API sends: describeModelError calls it unreadable.
    const malformed = (data: string, why: string): APICallError =>
      new APICallError({ message: data ? `${why}: ${data.slice(0, 200)}` : why, url: this.url, requestBodyValues: body, statusCode: response.status, responseBody: data })

    // llama.cpp reports a failure mid-stream as an `error:` field, not a `data:` one.
    const onErrorField = (value: string): never => {
      throw new Error(streamErrorMessage(errorFieldOf(value)))
    }
    await readSseData(response.body!, onErrorField, (data) => {
      if (data === '[DONE]') return
      let chunk: Chunk
      try {
        chunk = JSON.parse(data) as Chunk
      } catch {
        throw malformed(data, 'an event of the stream is not JSON')
      }
      if (chunk === null || typeof chunk !== 'object') throw malformed(data, 'an event of the stream is not a JSON object')
      // The server's own words, as any other failed model call shows them.
      if (chunk.error) throw new Error(streamErrorMessage(chunk.error))
      if (chunk.usage) usage = chunk.usage
      const choice = chunk.choices?.[0]
      if (!choice) return
      if (choice.finish_reason) finish = choice.finish_reason
      const delta = choice.delta
      if (!delta) return
      const thought = delta.reasoning_content ?? delta.reasoning
      if (thought) reasoning.push(thought)
      const content = contentText(delta.content)
      if (content) {
        pieces.push(content)
        request.onPart({ type: 'text-delta', text: content })
      }
      for (const piece of delta.tool_calls ?? []) calls.take(piece)
    })
    if (finish === null) throw malformed('', 'the stream ended without a finish reason')

    const content: Exclude<AssistantContent, string> = []
    if (reasoning.length > 0) content.push({ type: 'reasoning', text: reasoning.join('') })
    const answer = pieces.join('')
    if (answer) content.push({ type: 'text', text: answer })
    for (const call of calls.list) {
      const input = parseArguments(call.pieces.join(''))
      request.onPart({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input })
      content.push({
        type: 'tool-call',
        toolCallId: call.id,
        toolName: call.name,
        input,
        ...(call.signature ? { providerOptions: { google: { thoughtSignature: call.signature } } } : {})
      })
    }
    const responseMessages: ModelMessage[] = content.length > 0 ? [{ role: 'assistant', content }] : []
    return { responseMessages, usage: usageOf(usage), finishReason: finishReasonOf(finish) }
  }
}

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  headers.forEach((value, name) => (out[name] = value))
  return out
}

/** Empty arguments mean none; text that is not JSON stays text (the runner says so to the model). */
function parseArguments(text: string): unknown {
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** A delta's text: a string, or the text parts of a content array (some servers send those). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  let text = ''
  for (const part of content as Array<{ type?: unknown; text?: unknown }>) if (part?.type === 'text' && typeof part.text === 'string') text += part.text
  return text
}

function usageOf(usage: WireUsage | null): Usage {
  if (!usage) return {}
  const input = usage.prompt_tokens ?? 0
  const output = usage.completion_tokens ?? 0
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: usage.total_tokens ?? input + output,
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
    ...(reasoning > 0 ? { reasoningTokens: reasoning } : {})
  }
}

function finishReasonOf(reason: string): ModelFinishReason {
  switch (reason) {
    case 'stop':
    case 'length':
      return reason
    case 'content_filter':
      return 'content-filter'
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls'
    default:
      return 'other'
  }
}

/** `{"error":{"message":…}}` (OpenAI and most compatible servers), else nothing. */
function serverMessage(responseBody: string): string | undefined {
  if (responseBody.trim() === '') return undefined
  try {
    const parsed = JSON.parse(responseBody) as { error?: { message?: unknown } | string; message?: unknown }
    if (typeof parsed.error === 'string') return parsed.error
    if (typeof parsed.error?.message === 'string') return parsed.error.message
    if (typeof parsed.message === 'string') return parsed.message
  } catch {
    // Not JSON: the status text says what there is to say.
  }
  return undefined
}

function streamErrorMessage(error: NonNullable<Chunk['error']>): string {
  if (typeof error === 'string') return error
  return typeof error.message === 'string' ? error.message : JSON.stringify(error)
}

/**
 * A request that failed before any response (as the SDK does it): aborts stay aborts; fetch's
 * "fetch failed" becomes a retryable APICallError with the network reason as its cause; errors
 * our own fetch wrapper threw on purpose (nothing listening) pass through unchanged.
 */
function connectionError(error: unknown, url: string, body: object): unknown {
  if ((error instanceof Error || error instanceof DOMException) && error.name === 'AbortError') return error
  if (error instanceof TypeError && error.cause instanceof Error) {
    return new APICallError({ message: `Cannot connect to API: ${error.cause.message}`, cause: error.cause, url, requestBodyValues: body, isRetryable: true })
  }
  return error
}
