/**
 * An answer's tokens, in its row of message actions (MessageActions): "1,234 in · 567 out", the
 * cached and reasoning tokens when the provider reported them, and the cost when Settings has a
 * price for the run's model. The tooltip has the exact numbers and the model. A run's tokens go
 * under its last answer, once the run is over.
 */
import { useT } from '../../i18n'
import { type ChatSnapshot, useChatStore, useSettingsStore } from '../../stores'
import { hasUsage } from '../../../../shared/usage'
import { priceOfRun, runCost } from './cost'
import { runUsageDetail, runUsageLine } from './usage-text'

/** The last assistant message of a run (the one its tokens are shown under), or null. */
function lastAnswerId(snapshot: ChatSnapshot | null, runId: string): string | null {
  const messages = snapshot?.messages ?? []
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!
    if (message.runId === runId && message.role === 'assistant') return message.id
  }
  return null
}

export function UsageBadge({ runId, messageId }: { runId: string | null; messageId: string }) {
  const t = useT()
  const run = useChatStore((s) => (runId ? s.snapshot?.runs.find((r) => r.id === runId) : undefined))
  const isLast = useChatStore((s) => runId !== null && lastAnswerId(s.snapshot, runId) === messageId)
  const prices = useSettingsStore((s) => s.settings?.modelPrices)
  if (!run || !isLast || run.status === 'running' || !hasUsage(run.usage)) return null

  const cost = runCost(run, prices)
  const detail = runUsageDetail(t, run.usage, run.model, cost, priceOfRun(run.model, prices))
  return (
    <span
      className="usage-badge"
      data-testid="usage-badge"
      data-cost={cost ? 'true' : 'false'}
      role="note"
      tabIndex={0}
      title={detail}
      aria-label={detail}
    >
      {runUsageLine(t, run.usage, cost)}
    </span>
  )
}
