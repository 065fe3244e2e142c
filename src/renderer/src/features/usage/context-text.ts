/**
 * The words of the context meter and the compaction marker (docs/architecture.md, "Context window"
 * and "Compaction"). Pure given a Translator, so unit tests read exactly what the chat shows.
 */
import type { Compaction, ContextFill } from '../../../../shared/agent-events'
import type { Translator } from '../../i18n'
import { formatTokens } from './format'

/** The share of the window the latest request took, in whole percent (at most 999). */
export function contextPercent(fill: ContextFill): number {
  return Math.min(999, Math.round((fill.inputTokens / fill.window) * 100))
}

/** "38 %": the meter's own label. */
export function contextMeterLine(t: Translator, fill: ContextFill): string {
  return t('context.meter', { percent: contextPercent(fill) })
}

/** "12.3k of 32k tokens (38 %) · window from the model list". */
export function contextMeterDetail(t: Translator, fill: ContextFill): string {
  const used = formatTokens(fill.inputTokens, t.language)
  const window = formatTokens(fill.window, t.language)
  return `${t('context.meter.detail', { used, window, percent: contextPercent(fill) })} · ${t(`context.source.${fill.source}`)}`
}

/** The timeline's marker: what was summarised and elided, and the prompt before and after. */
export function compactionLine(t: Translator, compaction: Compaction): string {
  const parts: string[] = []
  if (compaction.summarised > 0) parts.push(t('context.compacted.summarised', { n: compaction.summarised }))
  if (compaction.elided > 0) parts.push(t('context.compacted.elided', { n: compaction.elided }))
  const sizes = t('context.compacted.sizes', { before: formatTokens(compaction.tokensBefore, t.language), after: formatTokens(compaction.tokensAfter, t.language) })
  return t('context.compacted.line', { what: t(compaction.forced ? 'context.compacted.forced' : 'context.compacted'), parts: parts.join(t('context.compacted.and')), sizes })
}
