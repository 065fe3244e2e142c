/**
 * Token usage and cost: per answer (UsageBadge), per conversation (ConversationUsage), how full the
 * model's context is (ContextMeter) and where it was compacted (CompactionMarker), and the pure maths behind them.
 */
export { ConversationUsage } from './ConversationUsage'
export { costOf, priceOfRun, runCost, totalCost, type Cost, type ModelPrices, type PricedRun, type TotalCost } from './cost'
export { formatCost, formatExactCost, formatTokenCount, formatTokens } from './format'
export { UsageBadge } from './UsageBadge'
export { conversationUsageDetail, conversationUsageLine, runUsageDetail, runUsageLine } from './usage-text'
export { CompactionMarker } from './CompactionMarker'
export { ContextMeter } from './ContextMeter'
export { compactionLine, contextMeterDetail, contextMeterLine, contextPercent } from './context-text'
