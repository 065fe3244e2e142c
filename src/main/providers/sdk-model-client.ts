import type { LanguageModel, LanguageModelUsage, ToolSet } from 'ai'
import { AppError, type Usage } from '../../shared'
import { linkedAbort } from './linked-abort'
import type { ModelClient, ModelFinishReason, ModelTool, ModelTurnRequest, ModelTurnResult } from './model-client'

/* eslint-disable @typescript-eslint/no-require-imports -- loaded late, on purpose */
/** The AI SDK, loaded by the first turn, not with the app: `run` writes its first event before it loads (docs/benchmarks.md, "CLI start-up"). */
const loadAi = (): typeof import('ai') => require('ai') as typeof import('ai')
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * A provider spoken through its AI SDK package (Anthropic, OpenAI): `streamText` with the tools
 * declared without `execute`, so execution stays the loop's (docs/architecture.md, "Model clients").
 * The SDK model is made on the first turn and kept: a provider builds its schemas when it is made.
 */
export class SdkModelClient implements ModelClient {
  private model: LanguageModel | null = null
  private readonly toolSets = new WeakMap<readonly ModelTool[], ToolSet>()

  constructor(
    readonly provider: string,
    readonly modelId: string,
    private readonly makeModel: () => LanguageModel
  ) {}

  async streamTurn(request: ModelTurnRequest): Promise<ModelTurnResult> {
    const ai = loadAi()
    this.model ??= this.makeModel()
    // Stopping early on our side (an onPart that threw: the disk is full) must end the model's stream too.
    const stop = linkedAbort(request.signal)
    const result = ai.streamText({
      model: this.model,
      ...(request.system ? { system: request.system } : {}),
      messages: [...request.messages],
      ...(request.tools.length > 0 ? { tools: this.toolSet(request.tools, ai) } : {}),
      ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
      abortSignal: stop.signal,
      maxRetries: request.maxRetries,
      // Errors arrive as 'error' parts and end the run with one line; the SDK's default logs stacks.
      onError: () => {}
    })
    let usage: Usage = {}
    let finishReason: ModelFinishReason = 'other'
    try {
      for await (const part of result.fullStream) {
        switch (part.type) {
          case 'text-delta':
            if (part.text.length > 0) request.onPart({ type: 'text-delta', text: part.text })
            break
          case 'tool-call':
            // Invalid calls (unknown tool, arguments that are not JSON) come through too; the runner
            // turns them into error results with our own wording.
            request.onPart({ type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input })
            break
          case 'finish-step':
            usage = usageOf(part.usage)
            finishReason = part.finishReason
            break
          case 'error':
            throw part.error
          case 'abort':
            throw new AppError('CANCELLED', 'Cancelled by the user.')
          default:
            break
        }
      }
    } catch (error) {
      stop.abort()
      throw error
    } finally {
      stop.dispose()
    }
    const response = await result.response
    // The SDK appends its own tool-error messages for invalid calls; the loop's replace them.
    return { responseMessages: response.messages.filter((message) => message.role !== 'tool'), usage, finishReason }
  }

  /** The SDK's tool set for a list of declarations, made once per list (the registry caches its list). */
  private toolSet(tools: readonly ModelTool[], ai: typeof import('ai')): ToolSet {
    let set = this.toolSets.get(tools)
    if (!set) {
      set = {}
      for (const tool of tools) {
        set[tool.name] = ai.tool({ description: tool.description, inputSchema: ai.jsonSchema(tool.inputSchema as Parameters<typeof ai.jsonSchema>[0]) })
      }
      this.toolSets.set(tools, set)
    }
    return set
  }
}

/** One step's tokens; cached and reasoning tokens only when the provider reported some. */
function usageOf(usage: LanguageModelUsage): Usage {
  const input = usage.inputTokens ?? 0
  const output = usage.outputTokens ?? 0
  const cached = usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens ?? 0
  const reasoning = usage.outputTokenDetails?.reasoningTokens ?? usage.reasoningTokens ?? 0
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: usage.totalTokens ?? input + output,
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
    ...(reasoning > 0 ? { reasoningTokens: reasoning } : {})
  }
}
