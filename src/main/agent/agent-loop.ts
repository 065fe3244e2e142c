import type { ImagePart, ModelMessage, TextPart, ToolContent, UserContent } from 'ai'
import {
  newId,
  type AgentEvent,
  type AppErrorShape,
  type ContextWindowSource,
  type StopReason,
  type ToolAttachmentRef,
  type Usage
} from '../../shared'
import type { ModelClient } from '../providers'
import type { ToolDescriptionStyle, ToolRegistry } from '../tools'
import { ContextKeeper, SUMMARY_SHARE, type CompactionReport } from './context-keeper'
import { storedSummary, summarise } from './context-summary'
import { messagesForStore } from './stored-messages'
import { estimateTextTokens, estimateToolSetTokens } from './token-estimate'
import type { ToolCallRunner } from './tool-call-runner'
import type { ModelToolCall, ToolCallResult } from './tool-call-types'

export const DEFAULT_MAX_ITERATIONS = 10

/** A model's context window and where it came from (providers/context-window.ts makes them). */
interface ContextWindow {
  tokens: number
  source: ContextWindowSource
}

export interface AgentLoopOptions {
  /** Speaks to the model (providers/model-client.ts); the loop only sees text pieces, tool calls and usage. */
  model: ModelClient
  /** "provider:model", for run_started. */
  modelLabel: string
  registry: ToolRegistry
  /**
   * Tools declared in full or compact (docs/tools.md, "Compact tool descriptions"); a promise while
   * the model's context window is still being asked (the first model step waits for it).
   */
  toolDescriptions: ToolDescriptionStyle | Promise<ToolDescriptionStyle>
  runner: ToolCallRunner
  systemPrompt: string
  maxIterations: number
  maxRetries: number
  /** The model takes image input; otherwise images tools return reach it as a text note. */
  acceptsImages: boolean
  emit(event: AgentEvent): void
  /** Persists model messages as soon as they exist, so the next turn has the context. */
  onModelMessages(messages: ModelMessage[]): void
  describeError(error: unknown): AppErrorShape
  /**
   * The model's context window (docs/architecture.md, "Context window"): the run compacts what it
   * sends when a request nears it, and reports how full each request was. Absent: neither.
   */
  contextWindow?: ContextWindow | Promise<ContextWindow>
  /**
   * Provider tokens per estimated token, as the conversation's previous run measured it (its first
   * request is estimated with it), and where this run's measurement goes.
   */
  contextScale?: { initial?: number; update(scale: number): void }
  /** Whether a failed model call is the provider refusing a prompt too long for its window (then: compact harder, try once more). */
  isContextOverflow?(error: unknown): boolean
  /** The window such a refusal names, if it names one: the run plans with it from then on. */
  windowFromOverflow?(error: unknown): number | undefined
}

export interface AgentRunInput {
  runId: string
  conversationId: string
  prompt: string
  history: ModelMessage[]
  signal: AbortSignal
  /**
   * The user's message when it is more than `prompt` (attachments): what the model gets now, and
   * what history keeps (docs/architecture.md, "Attachments in messages").
   */
  userContent?: { forModel: UserContent; forHistory: UserContent }
  /** What the user attached, named in run_started. */
  attachments?: ToolAttachmentRef[]
  /** The question the run answers and the run it follows, named in run_started (docs/architecture.md, "Message versions"). */
  question?: { id: string; parentRunId: string | null }
}

export type AgentRunOutcome =
  | { status: 'completed'; text: string; stopReason: StopReason; iterations: number; usage: Usage }
  | { status: 'failed'; error: AppErrorShape; iterations: number }

/**
 * The loop (docs/architecture.md): one streamed model call per step, tools declared without `execute` so
 * execution, approval and truncation stay ours; stops on a final answer, maxIterations, cancel
 * or an unrecoverable error. Never throws: the outcome is also emitted as an event.
 */
export async function runAgent(options: AgentLoopOptions, input: AgentRunInput): Promise<AgentRunOutcome> {
  const { emit } = options
  const scope = { runId: input.runId, conversationId: input.conversationId }
  const attached = input.attachments?.length ? { attachments: input.attachments } : {}
  const question = input.question ? { question: input.question } : {}
  const userMessage: ModelMessage = { role: 'user', content: input.userContent?.forModel ?? input.prompt }
  const usage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 }
  let iterations = 0
  let lastText = ''

  const complete = (stopReason: StopReason): AgentRunOutcome => {
    emit({ type: 'run_completed', ...scope, at: Date.now(), text: lastText, stopReason, iterations, usage })
    return { status: 'completed', text: lastText, stopReason, iterations, usage }
  }

  try {
    // Inside the try: a store that cannot write (a full disk) fails the run like any other error.
    emit({ type: 'run_started', ...scope, at: Date.now(), prompt: input.prompt, model: options.modelLabel, ...attached, ...question })
    options.onModelMessages([input.userContent ? { role: 'user', content: input.userContent.forHistory } : userMessage])
    // The window may need a question to the model's server: asked once the run is under way.
    const window = await options.contextWindow
    // Every message as it happened; what each request sends is the keeper's view of them (compaction).
    const context = new ContextKeeper(input.history, window?.tokens ?? Number.POSITIVE_INFINITY, options.contextScale?.initial)
    context.add(userMessage)
    for (;;) {
      if (input.signal.aborted) return complete('cancelled')
      if (iterations >= options.maxIterations) return complete('max_iterations')
      iterations++
      const step = await modelStep(options, window, context, input, usage)
      lastText = step.text
      context.add(...step.responseMessages)
      options.onModelMessages(messagesForStore(step.responseMessages, options.registry))
      if (input.signal.aborted) return complete('cancelled')
      if (step.toolCalls.length === 0) return complete('final')

      const results = await options.runner.runStep(step.toolCalls, { ...scope, signal: input.signal })
      const resultMessages = toResultMessages(results, options.acceptsImages)
      context.add(...resultMessages)
      options.onModelMessages(resultMessages)
    }
  } catch (error) {
    if (input.signal.aborted) return complete('cancelled')
    const described = options.describeError(error)
    // The calls that finished before the failure were used (and billed) all the same.
    const spent = (usage.totalTokens ?? 0) > 0 ? { usage } : {}
    emit({ type: 'run_failed', ...scope, at: Date.now(), error: described, ...spent })
    return { status: 'failed', error: described, iterations }
  }
}

/**
 * One model step on the context's view: compacted first when the prompt nears the window; when the
 * provider still refuses it as too long, compacted harder and sent once more.
 */
async function modelStep(options: AgentLoopOptions, window: ContextWindow | undefined, context: ContextKeeper, input: AgentRunInput, usage: Usage): Promise<StepResult> {
  const fixed = promptTokens(options.systemPrompt) + estimateToolSetTokens(options.registry.toModelTools(await options.toolDescriptions))
  const send = () => streamStep(options, context.view(fixed), input)
  if (window && context.needsCompaction(fixed)) await compact(options, context.window, context, input, usage, fixed, false)
  let step: StepResult
  try {
    step = await send()
  } catch (error) {
    if (!window || input.signal.aborted || !options.isContextOverflow?.(error)) throw error
    const named = options.windowFromOverflow?.(error)
    if (named !== undefined) context.narrowWindow(named)
    await compact(options, context.window, context, input, usage, fixed, true)
    step = await send()
  }
  addUsage(usage, step.usage)
  const reported = step.usage.inputTokens
  context.observe(reported)
  if (window && reported !== undefined && reported > 0) {
    options.contextScale?.update(context.scale())
    options.emit({ type: 'context_usage', runId: input.runId, conversationId: input.conversationId, at: Date.now(), inputTokens: reported, window: window.tokens, source: window.source })
  }
  return step
}

/** The system prompt's tokens, counted once per prompt (a run sends the same one every step). */
let lastPrompt: { text: string; tokens: number } | null = null
function promptTokens(text: string): number {
  if (lastPrompt?.text !== text) lastPrompt = { text, tokens: estimateTextTokens(text) }
  return lastPrompt.tokens
}

/** Compacts the context (context-keeper.ts), persists a new summary, and tells the front doors. */
async function compact(options: AgentLoopOptions, window: number, context: ContextKeeper, input: AgentRunInput, usage: Usage, fixed: number, forced: boolean): Promise<void> {
  const report: CompactionReport | null = await context.compact(
    fixed,
    (previous, messages) =>
      summarise(previous, messages, {
        model: options.model,
        maxRetries: options.maxRetries,
        signal: input.signal,
        // A summarisation request stays well inside the window, its answer included.
        requestBudget: Math.floor(window * 0.6),
        summaryTokens: Math.min(2000, Math.max(150, Math.floor(context.room(fixed) * SUMMARY_SHARE))),
        onUsage: (spent) => addUsage(usage, spent)
      }),
    { forced, onSummary: (summary) => options.onModelMessages([storedSummary(summary)]) }
  )
  if (!report) return
  options.emit({
    type: 'context_compacted',
    runId: input.runId,
    conversationId: input.conversationId,
    at: Date.now(),
    summarised: report.summarised,
    elided: report.elided,
    tokensBefore: report.tokensBefore,
    tokensAfter: report.tokensAfter,
    window,
    ...(forced ? { forced: true } : {})
  })
}

interface StepResult {
  text: string
  toolCalls: ModelToolCall[]
  responseMessages: ModelMessage[]
  usage: Usage
}

async function streamStep(options: AgentLoopOptions, messages: readonly ModelMessage[], input: AgentRunInput): Promise<StepResult> {
  const messageId = newId('msg')
  const toolStyle = await options.toolDescriptions
  // Pieces joined once at the end: a long answer costs time linear in its length.
  const pieces: string[] = []
  const toolCalls: ModelToolCall[] = []
  const turn = await options.model.streamTurn({
    system: options.systemPrompt,
    messages,
    tools: options.registry.toModelTools(toolStyle),
    signal: input.signal,
    maxRetries: options.maxRetries,
    onPart(part) {
      if (part.type === 'text-delta') {
        pieces.push(part.text)
        options.emit({ type: 'text_delta', runId: input.runId, conversationId: input.conversationId, at: Date.now(), messageId, delta: part.text })
      } else {
        // Invalid calls (unknown tool, arguments that are not JSON) come through too; the runner
        // turns them into error results with our own wording.
        toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input })
      }
    }
  })
  return { text: pieces.join(''), toolCalls, responseMessages: turn.responseMessages, usage: turn.usage }
}

/**
 * The tool message, and after it a user message with the images the tools returned: every
 * provider's chat API accepts images in a user message, while tool messages are text-only in
 * OpenAI-style APIs (docs/architecture.md, "Images"). A text-only model gets a note instead.
 */
function toResultMessages(results: ToolCallResult[], acceptsImages: boolean): ModelMessage[] {
  const content: ToolContent = results.map(({ call, forLlm, isError, images }) => {
    const value = forLlm + imageNote(images, acceptsImages)
    return {
      type: 'tool-result' as const,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: isError ? { type: 'error-text' as const, value } : { type: 'text' as const, value }
    }
  })
  const messages: ModelMessage[] = [{ role: 'tool', content }]
  const withImages = acceptsImages ? results.filter((result) => result.images.length > 0) : []
  if (withImages.length > 0) {
    const parts: Array<TextPart | ImagePart> = []
    for (const { call, images } of withImages) {
      parts.push({ type: 'text', text: `Image${images.length > 1 ? 's' : ''} returned by ${call.toolName} (call ${call.toolCallId}):` })
      for (const image of images) parts.push({ type: 'image', image: image.data, mediaType: image.mediaType })
    }
    messages.push({ role: 'user', content: parts })
  }
  return messages
}

function imageNote(images: ToolCallResult['images'], acceptsImages: boolean): string {
  if (images.length === 0) return ''
  const labels = images.map((image) => image.label).join(', ')
  return acceptsImages
    ? `\n[${images.length} image${images.length > 1 ? 's' : ''} attached in the next message: ${labels}]`
    : `\n[The tool returned ${images.length > 1 ? 'images' : 'an image'} (${labels}) that you cannot see: this model is configured as text-only. The user can see it in DeskClaw.]`
}

/** Adds one step's usage to the run's; cached and reasoning tokens only once a step reports some. */
function addUsage(total: Usage, usage: Usage): void {
  total.inputTokens = (total.inputTokens ?? 0) + (usage.inputTokens ?? 0)
  total.outputTokens = (total.outputTokens ?? 0) + (usage.outputTokens ?? 0)
  total.totalTokens = (total.totalTokens ?? 0) + (usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0))
  if (usage.cachedInputTokens) total.cachedInputTokens = (total.cachedInputTokens ?? 0) + usage.cachedInputTokens
  if (usage.reasoningTokens) total.reasoningTokens = (total.reasoningTokens ?? 0) + usage.reasoningTokens
}
