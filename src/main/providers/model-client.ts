import type { ModelMessage } from 'ai'
import type { Usage } from '../../shared'

/**
 * What the loop asks of a model (docs/architecture.md, "Model clients"): one streamed turn, text
 * pieces and tool calls as they come, the turn's messages and usage at the end. The OpenAI wire
 * format is spoken directly (`OpenAIChatClient`); Anthropic and OpenAI go through their AI SDK
 * providers (`SdkModelClient`). Only the message type is the SDK's: it is what the store keeps.
 */
export interface ModelClient {
  /** Which API it speaks ("openai-compatible.chat", "anthropic.messages") and the model it asks. */
  readonly provider: string
  readonly modelId: string
  streamTurn(request: ModelTurnRequest): Promise<ModelTurnResult>
}

/** A tool as the model is told of it: the JSON Schema of its arguments (the registry caches these). */
export interface ModelTool {
  name: string
  description: string
  inputSchema: Record<string, unknown>
}

export interface ModelTurnRequest {
  system: string
  messages: readonly ModelMessage[]
  tools: readonly ModelTool[]
  signal: AbortSignal
  /** Retries of the request (never of a stream that started): 408/409/429/5xx and dropped connections. */
  maxRetries: number
  maxOutputTokens?: number
  /** Each part as it arrives; a throw ends the turn (and its request) with that error. */
  onPart(part: ModelTurnPart): void
}

export type ModelTurnPart =
  | { type: 'text-delta'; text: string }
  /**
   * A complete tool call. `input` is the parsed JSON arguments, or the raw text when it is not
   * JSON (the runner answers the model with its own words then).
   */
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }

export interface ModelTurnResult {
  /** The assistant's message(s) of this turn, as the next request sends them back. */
  responseMessages: ModelMessage[]
  usage: Usage
  finishReason: ModelFinishReason
}

export type ModelFinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other'
