/**
 * The open conversation's tokens in the chat header, next to the model picker: "18.4k tokens ·
 * $0.03". Every run that reported tokens counts, failed and cancelled ones too; the cost covers
 * the runs whose model has a price in Settings, and the tooltip says which runs it leaves out.
 */
import { useMemo } from 'react'
import { useT } from '../../i18n'
import { useChatStore, useSettingsStore } from '../../stores'
import { hasUsage, sumUsage } from '../../../../shared/usage'
import { totalCost } from './cost'
import { conversationUsageDetail, conversationUsageLine } from './usage-text'

export function ConversationUsage({ conversationId }: { conversationId: string | null }) {
  const t = useT()
  const runs = useChatStore((s) => (s.snapshot && s.snapshot.conversationId === conversationId ? s.snapshot.runs : null))
  const prices = useSettingsStore((s) => s.settings?.modelPrices)
  const summary = useMemo(() => {
    const counted = (runs ?? []).filter((run) => hasUsage(run.usage))
    return { usage: sumUsage(counted.map((run) => run.usage)), runs: counted.length, cost: totalCost(counted, prices) }
  }, [runs, prices])
  if (summary.runs === 0) return null

  const detail = conversationUsageDetail(t, summary.usage, summary.runs, summary.cost)
  return (
    <span
      className="conversation-usage"
      data-testid="conversation-usage"
      data-cost={summary.cost.costs.length > 0 ? 'true' : 'false'}
      role="note"
      tabIndex={0}
      title={detail}
      aria-label={detail}
    >
      {conversationUsageLine(t, summary.usage, summary.cost)}
    </span>
  )
}
