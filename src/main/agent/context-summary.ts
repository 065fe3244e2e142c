import type { ModelMessage } from 'ai'
import type { Usage } from '../../shared'
import { markSummary, UNTRUSTED_TAG } from '../provenance'
import type { ModelClient } from '../providers'
import { estimateTextTokens, toolResultText } from './token-estimate'

/**
 * How a summary message begins: the model is told in the message itself that it is DeskClaw's
 * summary of earlier steps, never words of the user (docs/architecture.md, "Compaction").
 */
export const CONTEXT_SUMMARY_MARKER = '[Context summary by DeskClaw]'

const SUMMARY_PREAMBLE =
  `${CONTEXT_SUMMARY_MARKER} Earlier steps of this conversation were summarised to fit the model's context window. ` +
  'This summary was written for you by DeskClaw, not by the user; the full record is kept in DeskClaw. Continue the work from here.'

/** The instruction of a summarisation request. */
export const SUMMARY_INSTRUCTION =
  'You summarise an AI agent\'s conversation so the agent can continue without the original messages. ' +
  'Keep: every request the user made (the latest one in full), decisions and their reasons, facts and results found ' +
  '(file paths, names, numbers, errors), what was changed, and what is left to do. Leave out chatter and raw tool output ' +
  'that can be read again. Write plain text, terse, in the language the user wrote in.'

/** Where a stored summary says which of the conversation's messages it stands for (stored-messages.ts keeps it). */
type SummaryOptions = { deskclaw: { contextSummary: { covers: number } } }

/** A summary as the loop keeps it: its text, and how many of the conversation's first messages it stands for. */
export interface ContextSummary {
  text: string
  covers: number
}

/** The message the model gets in place of the first `covers` messages. */
export function summaryMessage(summary: ContextSummary, latestRequest: string | undefined): ModelMessage {
  const request = latestRequest === undefined ? '' : `\n\nThe user's latest request in the summarised part, verbatim:\n${latestRequest}`
  return { role: 'user', content: `${SUMMARY_PREAMBLE}\n\n${summary.text}${request}` }
}

/** The row stored in the conversation's model history, so the next turn reuses it (store: model_messages). */
export function storedSummary(summary: ContextSummary): ModelMessage {
  const providerOptions: SummaryOptions = { deskclaw: { contextSummary: { covers: summary.covers } } }
  return { role: 'user', content: summary.text, providerOptions }
}

/**
 * A stored history split into the original messages and the newest summary among them. `covers`
 * counts original messages (summary rows are not counted), so it holds on every branch that
 * includes the run that wrote it.
 */
export function splitStoredHistory(history: readonly ModelMessage[]): { originals: ModelMessage[]; summary: ContextSummary | null } {
  const originals: ModelMessage[] = []
  let summary: ContextSummary | null = null
  for (const message of history) {
    const covers = (message.providerOptions as Partial<SummaryOptions> | undefined)?.deskclaw?.contextSummary?.covers
    if (typeof covers === 'number' && message.role === 'user' && typeof message.content === 'string') {
      if (covers <= originals.length && (summary === null || covers >= summary.covers)) summary = { text: message.content, covers }
    } else originals.push(message)
  }
  return { originals, summary }
}

/** The most characters of one tool output or argument list a summarisation request quotes. */
const QUOTED_OUTPUT_CHARS = 1500
const QUOTED_ARGS_CHARS = 400
/** A message's own text: a long paste is quoted short too, so one line always fits a request. */
const QUOTED_TEXT_CHARS = 4000

/** Messages as plain lines for a summarisation request: tool calls and results quoted short. */
export function transcriptLines(messages: readonly ModelMessage[]): string[] {
  const lines: string[] = []
  for (const message of messages) {
    if (typeof message.content === 'string') {
      lines.push(`${speaker(message.role)}: ${quote(message.content, QUOTED_TEXT_CHARS)}`)
      continue
    }
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
          if (part.text.trim()) lines.push(`${speaker(message.role)}: ${quote(part.text, QUOTED_TEXT_CHARS)}`)
          break
        case 'tool-call':
          lines.push(`Agent called ${part.toolName} ${quote(JSON.stringify(part.input ?? {}), QUOTED_ARGS_CHARS)}`)
          break
        case 'tool-result':
          lines.push(`Result of ${part.toolName}: ${quote(toolResultText(part.output), QUOTED_OUTPUT_CHARS)}`)
          break
        case 'image':
        case 'file':
          lines.push(`${speaker(message.role)}: [an image]`)
          break
        default:
          break
      }
    }
  }
  return lines
}

function speaker(role: ModelMessage['role']): string {
  return role === 'user' ? 'User' : role === 'assistant' ? 'Agent' : role === 'tool' ? 'Tool' : 'System'
}

/** Head and tail of a long text, with how much was left out between them. */
function quote(text: string, max: number): string {
  if (text.length <= max) return text
  const half = Math.floor(max / 2)
  return `${text.slice(0, half)} […${text.length - 2 * half} characters…] ${text.slice(-half)}`
}

export interface SummariseOptions {
  model: ModelClient
  maxRetries: number
  signal: AbortSignal
  /** The largest prompt one summarisation request may have, in estimated tokens. */
  requestBudget: number
  /** The longest summary asked for, in tokens. */
  summaryTokens: number
  onUsage(usage: Usage): void
}

/**
 * The model's summary of `previous` plus these messages: one request when they fit the budget, else
 * one per chunk, each folding the summary so far into the next. Returns the number of requests too.
 */
export async function summarise(previous: string | null, messages: readonly ModelMessage[], options: SummariseOptions): Promise<{ text: string; requests: number }> {
  const fixed = estimateTextTokens(SUMMARY_INSTRUCTION) + options.summaryTokens + 64
  let summary = previous
  let requests = 0
  let chunk: string[] = []
  let chunkTokens = 0
  const flush = async () => {
    if (chunk.length === 0) return
    const head = summary === null ? '' : `Summary so far:\n${summary}\n\n`
    const pieces: string[] = []
    const { usage } = await options.model.streamTurn({
      system: SUMMARY_INSTRUCTION,
      messages: [{ role: 'user', content: `${head}Steps to add to the summary:\n${chunk.join('\n')}\n\nWrite the updated summary (at most about ${Math.round(options.summaryTokens * 0.7)} words).` }],
      tools: [],
      maxOutputTokens: options.summaryTokens,
      maxRetries: options.maxRetries,
      signal: options.signal,
      onPart: (part) => {
        if (part.type === 'text-delta') pieces.push(part.text)
      }
    })
    const text = pieces.join('')
    options.onUsage(usage)
    requests++
    summary = text.trim() || summary
    chunk = []
    chunkTokens = 0
  }
  for (const line of transcriptLines(messages)) {
    const tokens = estimateTextTokens(line) + 2
    const budget = options.requestBudget - fixed - (summary === null ? 0 : estimateTextTokens(summary))
    if (chunk.length > 0 && chunkTokens + tokens > budget) await flush()
    chunk.push(line)
    chunkTokens += tokens
  }
  await flush()
  // Untrusted content folded into a summary stays marked (docs/risk.md, "Provenance"): the summary is
  // wrapped as untrusted when any step it stands for was, or the summary it continues was.
  const folded = (previous ?? '').includes(`<${UNTRUSTED_TAG} `) || messages.some((message) => JSON.stringify(message.content).includes(`<${UNTRUSTED_TAG} source=`))
  return { text: summary !== null && folded && requests > 0 ? markSummary(summary) : (summary ?? ''), requests }
}
