/** Token usage and cost: per answer (UsageBadge), per conversation (ConversationUsage), and the pure maths behind them. */
export { ConversationUsage } from './ConversationUsage'
export { costOf, priceOfRun, runCost, totalCost, type Cost, type ModelPrices, type PricedRun, type TotalCost } from './cost'
export { formatCost, formatExactCost, formatTokenCount, formatTokens } from './format'
export { UsageBadge } from './UsageBadge'
export { conversationUsageDetail, conversationUsageLine, runUsageDetail, runUsageLine } from './usage-text'
