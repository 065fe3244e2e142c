import type { ImagePart, ModelMessage, TextPart, ToolContent } from 'ai'
import { splitStoredHistory, summaryMessage, type ContextSummary } from './context-summary'
import { estimateMessageTokens, toolResultText } from './token-estimate'

/**
 * Compaction starts when a request's estimated prompt would leave less than this for the answer:
 * an eighth of the window, at least 1,024 tokens (a small window has little to spare, and an agent's
 * step is mostly a tool call), at most 16,384 (what no step's answer needs).
 */
export function answerReserve(window: number): number {
  return Math.min(16_384, Math.max(1024, Math.round(window * 0.125)))
}
/**
 * The room for messages is what the window leaves under that after the system prompt and the
 * tool declarations. Eliding old outputs is enough when the messages then take at most this share of it…
 */
const ELIDED_ENOUGH = 0.85
/** …and the newest steps are kept verbatim up to this share of it (at least the last step); forced, a share of the refused request. */
const KEEP_RECENT = 0.5
const KEEP_RECENT_FORCED = 0.25
/** A summary is asked to take at most this share of the room. */
export const SUMMARY_SHARE = 0.25
/** Tool outputs longer than this are elided from old steps. */
const ELIDE_MIN_CHARS = 2000

/** What one compaction did, for the `context_compacted` event. */
export interface CompactionReport {
  /** Original messages newly represented by the summary. */
  summarised: number
  /** Tool outputs and images newly elided. */
  elided: number
  tokensBefore: number
  tokensAfter: number
  /** Summarisation requests made. */
  requests: number
}

/** Writes a summary of `previous` plus `messages` (context-summary.ts `summarise`, with the run's model). */
export type Summariser = (previous: string | null, messages: readonly ModelMessage[]) => Promise<{ text: string; requests: number }>

/**
 * The conversation's messages as they happened (`messages`, never changed: they are what the store
 * keeps) and what the next request sends (`view()`): a marked summary in place of the oldest
 * messages, old large outputs elided, the newest steps verbatim (docs/architecture.md, "Compaction").
 * Sizes are kept as running sums, so a step costs the new messages' estimate, not a walk of the history.
 */
export class ContextKeeper {
  readonly messages: ModelMessage[]
  private summary: ContextSummary | null
  /** Large outputs of messages before this index are elided in the view. */
  private elideBefore: number
  private viewMessages: ModelMessage[] = []
  private viewTokens = 0
  /** Outputs and images elided so far (each counted once), and the messages they were in. */
  private elidedParts = 0
  private readonly elidedMessages = new WeakMap<ModelMessage, ModelMessage>()
  /** The last request: what the provider reported it as, and what we estimated. */
  private last: { reported: number; estimated: number } | null = null
  private pendingEstimate = 0

  constructor(
    history: readonly ModelMessage[],
    private windowTokens: number,
    /** Provider tokens per estimated token as an earlier run of this conversation measured it. */
    private readonly initialScale = 1
  ) {
    const { originals, summary } = splitStoredHistory(history)
    this.messages = originals
    this.summary = summary
    this.elideBefore = summary?.covers ?? 0
    this.rebuild()
  }

  get window(): number {
    return this.windowTokens
  }

  /** The provider named a smaller window than we were told (a refusal's words): plan with that from now on. */
  narrowWindow(tokens: number): void {
    if (tokens < this.windowTokens) this.windowTokens = tokens
  }

  /** The summary the view starts with, if any. */
  get currentSummary(): ContextSummary | null {
    return this.summary
  }

  add(...messages: ModelMessage[]): void {
    for (const message of messages) {
      this.messages.push(message)
      this.viewMessages.push(message)
      this.viewTokens += estimateMessageTokens(message)
    }
  }

  /** What the next request sends; `fixedTokens` (system prompt and tools) is noted for observe(). */
  view(fixedTokens: number): ModelMessage[] {
    this.pendingEstimate = fixedTokens + this.viewTokens
    return this.viewMessages
  }

  /** The provider's input tokens of the request view() was last called for: later estimates build on it. */
  observe(reportedInputTokens: number | undefined): void {
    if (reportedInputTokens !== undefined && reportedInputTokens > 0) this.last = { reported: reportedInputTokens, estimated: this.pendingEstimate }
  }

  /** Provider tokens per estimated token, from the last request (before the first: an earlier run's, or 1). */
  scale(): number {
    const measured = this.last === null ? this.initialScale : this.last.reported / Math.max(1, this.last.estimated)
    return Math.min(2, Math.max(0.5, measured))
  }

  /**
   * The next request's prompt in tokens: the provider's count of the last request plus our estimate
   * of what changed since, scaled the cautious way (growth by at least 1, shrinking by at most 1).
   */
  estimate(fixedTokens: number): number {
    const now = fixedTokens + this.viewTokens
    if (this.last === null) return Math.round(now * this.scale())
    const delta = now - this.last.estimated
    const factor = delta > 0 ? Math.max(1, this.scale()) : Math.min(1, this.scale())
    return Math.max(0, Math.round(this.last.reported + factor * delta))
  }

  /**
   * Whether the next request needs compacting first. Not when the system prompt and tools alone
   * fill the window: no compaction can help then (the provider's answer decides, see compact's `forced`).
   */
  needsCompaction(fixedTokens: number): boolean {
    return this.room(fixedTokens) > 0 && this.estimate(fixedTokens) > this.compactAt
  }

  /** The prompt size that starts a compaction (answerReserve). */
  private get compactAt(): number {
    return this.window - answerReserve(this.window)
  }

  /** What the window leaves for messages under compactAt once the system prompt and tools are in, in provider tokens. */
  room(fixedTokens: number): number {
    return Math.max(0, this.compactAt - fixedTokens * this.scale())
  }

  /**
   * Compacts the view: old large outputs elided first, then, if that is not enough (or `forced`:
   * the provider refused the request as too long), the old steps summarised by the model. A
   * tool call and its result stay together. Returns what it did, or null when there was nothing to do;
   * `onSummary` receives a new summary to persist.
   */
  async compact(fixedTokens: number, summarise: Summariser, options: { forced?: boolean; onSummary(summary: ContextSummary): void }): Promise<CompactionReport | null> {
    const forced = options.forced === true
    const tokensBefore = this.estimate(fixedTokens)
    const elidedBefore = this.elidedParts
    const covers = this.summary?.covers ?? 0
    const room = this.room(fixedTokens)
    // In our estimate's units, as tailStart counts. Forced: the window is smaller than we were told,
    // so a share of what the refused request held, whatever the room says.
    const keep = forced ? KEEP_RECENT_FORCED * Math.min(room / this.scale(), this.viewTokens) : (KEEP_RECENT * room) / this.scale()
    const tailStart = this.tailStart(covers, keep)
    let summarised = 0
    let requests = 0

    this.elideBefore = Math.max(this.elideBefore, tailStart)
    this.rebuild()
    if (forced || this.estimate(fixedTokens) > this.compactAt - (1 - ELIDED_ENOUGH) * room) {
      if (tailStart > covers) {
        const written = await summarise(this.summary?.text ?? null, this.messages.slice(covers, tailStart))
        requests = written.requests
        this.summary = { text: written.text, covers: tailStart }
        summarised = tailStart - covers
        options.onSummary(this.summary)
        this.rebuild()
      }
      // The newest steps alone are still too big (a huge output): their large outputs go too.
      if (forced || this.estimate(fixedTokens) > this.compactAt) {
        this.elideBefore = this.messages.length
        this.rebuild()
      }
    }
    const elided = this.elidedParts - elidedBefore
    if (summarised === 0 && elided === 0) return null
    return { summarised, elided, tokensBefore, tokensAfter: this.estimate(fixedTokens), requests }
  }

  /**
   * Where the verbatim tail starts: the earliest step boundary after `covers` whose messages from
   * there on fit `keep` tokens, or the last step's start when even that one does not.
   */
  private tailStart(covers: number, keep: number): number {
    let tokens = 0
    let start = -1
    for (let index = this.messages.length - 1; index > covers; index--) {
      tokens += estimateMessageTokens(this.messages[index]!)
      if (!this.isStepStart(index)) continue
      if (start !== -1 && tokens > keep) break
      start = index
    }
    return start === -1 ? covers : start
  }

  /** A message a view may start with after the summary: never a tool result without its call, nor images sent after one. */
  private isStepStart(index: number): boolean {
    const message = this.messages[index]!
    return message.role === 'assistant' || (message.role === 'user' && this.messages[index - 1]?.role !== 'tool')
  }

  private rebuild(): void {
    const covers = this.summary?.covers ?? 0
    const view: ModelMessage[] = []
    if (this.summary) view.push(summaryMessage(this.summary, this.latestRequestBefore(covers)))
    for (let index = covers; index < this.messages.length; index++) {
      const message = this.messages[index]!
      view.push(index < this.elideBefore ? this.elided(message) : message)
    }
    this.viewMessages = view
    this.viewTokens = view.reduce((sum, message) => sum + estimateMessageTokens(message), 0)
  }

  /** The user's newest request when it is among the summarised messages, so the model still has it word for word. */
  private latestRequestBefore(covers: number): string | undefined {
    for (let index = this.messages.length - 1; index >= 0; index--) {
      if (!this.isStepStart(index) || this.messages[index]!.role !== 'user') continue
      if (index >= covers) return undefined
      const { content } = this.messages[index]!
      const text = typeof content === 'string' ? content : content.map((part) => (part.type === 'text' ? part.text : '')).join('')
      return text.length > 4000 ? `${text.slice(0, 4000)}…` : text
    }
    return undefined
  }

  /** A message with its large tool outputs and images replaced by a note saying what was there (one copy per message). */
  private elided(message: ModelMessage): ModelMessage {
    const known = this.elidedMessages.get(message)
    if (known) return known
    let parts = 0
    let copy = message
    if (message.role === 'tool') {
      const content: ToolContent = message.content.map((part) => {
        if (part.type !== 'tool-result') return part
        const text = toolResultText(part.output)
        if (text.length <= ELIDE_MIN_CHARS) return part
        parts++
        const note = `[output of ${part.toolName} elided: ${formatSize(text)}; run it again if needed]`
        return { ...part, output: { type: part.output.type === 'error-text' ? ('error-text' as const) : ('text' as const), value: note } }
      })
      if (parts > 0) copy = { ...message, content }
    } else if (message.role === 'user' && Array.isArray(message.content) && message.content.some((part) => part.type === 'image')) {
      const content: Array<TextPart | ImagePart> = []
      for (const part of message.content) {
        if (part.type === 'image') {
          parts++
          content.push({ type: 'text', text: '[image elided]' })
        } else if (part.type === 'text') content.push(part)
      }
      copy = { ...message, content }
    }
    this.elidedParts += parts
    this.elidedMessages.set(message, copy)
    return copy
  }
}

function formatSize(text: string): string {
  const bytes = Buffer.byteLength(text)
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`
}
