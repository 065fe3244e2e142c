/** Pure helpers of the sidebar's search (unit-tested without a DOM). */
import type { ConversationSearchResult } from '../../../../shared/bridge'

export interface TextSegment {
  text: string
  match: boolean
}

/**
 * A snippet cut into plain and matched parts. Ranges out of bounds or out of order (never sent by
 * main, but this is rendering) are clamped and skipped rather than trusted.
 */
export function highlightSegments(text: string, highlights: ConversationSearchResult['highlights']): TextSegment[] {
  const segments: TextSegment[] = []
  let at = 0
  for (const { start, end } of highlights) {
    const from = Math.max(at, Math.min(start, text.length))
    const to = Math.max(from, Math.min(end, text.length))
    if (to === from) continue
    if (from > at) segments.push({ text: text.slice(at, from), match: false })
    segments.push({ text: text.slice(from, to), match: true })
    at = to
  }
  if (at < text.length) segments.push({ text: text.slice(at), match: false })
  return segments
}

/** How long the sidebar waits after a keystroke before it searches. */
export const SEARCH_DEBOUNCE_MS = 150
