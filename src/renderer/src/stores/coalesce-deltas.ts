/**
 * Deltas that arrive together (one animation frame's batch, event-batch.ts) are joined once before
 * they reach the chat state: one string concatenation and one new message object per message and
 * frame, instead of one per token, so a long answer or a long tool output costs time linear in its
 * length (issue 28, item 5). Order is kept: only neighbours of the same message (or call and
 * stream) are joined.
 */
import type { AgentEvent, AgentEventOf } from '../../../shared/agent-events'

export function coalesceDeltas(events: readonly AgentEvent[]): AgentEvent[] {
  const out: AgentEvent[] = []
  let pieces: string[] = []
  const close = (): void => {
    const last = out[out.length - 1]
    if (pieces.length > 1 && last) out[out.length - 1] = withText(last, pieces.join(''))
    pieces = []
  }
  for (const event of events) {
    const last = out[out.length - 1]
    if (last && pieces.length > 0 && isDelta(event) && joins(last, event)) {
      pieces.push(textOf(event))
      continue
    }
    close()
    out.push(event)
    if (isDelta(event)) pieces = [textOf(event)]
  }
  close()
  return out
}

type Delta = AgentEventOf<'text_delta'> | AgentEventOf<'tool_output_delta'>

function isDelta(event: AgentEvent): event is Delta {
  return event.type === 'text_delta' || event.type === 'tool_output_delta'
}

function joins(previous: AgentEvent, next: Delta): boolean {
  if (previous.runId !== next.runId || previous.conversationId !== next.conversationId) return false
  if (previous.type === 'text_delta' && next.type === 'text_delta') return previous.messageId === next.messageId
  if (previous.type === 'tool_output_delta' && next.type === 'tool_output_delta') {
    return previous.callId === next.callId && previous.stream === next.stream
  }
  return false
}

function textOf(event: Delta): string {
  return event.type === 'text_delta' ? event.delta : event.chunk
}

function withText(event: AgentEvent, text: string): AgentEvent {
  if (event.type === 'text_delta') return { ...event, delta: text }
  if (event.type === 'tool_output_delta') return { ...event, chunk: text }
  return event
}
