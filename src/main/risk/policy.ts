import type { Autonomy } from '../../shared'
import { READ_CATEGORIES, type ToolCategory } from '../tools'

export type Verdict = 'allow' | 'ask' | 'deny'

export interface PolicyDecision {
  verdict: Verdict
  reason: string
}

/**
 * The interim approval policy, by autonomy level and tool category only (DESIGN §4). The risk
 * engine replaces `ask` with finer verdicts; until then supervised asks before every non-read.
 */
export function decideByCategory(tool: string, category: ToolCategory, autonomy: Autonomy): PolicyDecision {
  const isRead = READ_CATEGORIES.has(category)
  switch (autonomy) {
    case 'readonly':
      return isRead
        ? { verdict: 'allow', reason: `${tool} only reads (${category}).` }
        : { verdict: 'deny', reason: `Autonomy is "readonly": ${tool} (${category}) is not allowed.` }
    case 'supervised':
      return isRead
        ? { verdict: 'allow', reason: `${tool} only reads (${category}).` }
        : { verdict: 'ask', reason: `Supervised mode asks before every ${category} tool.` }
    case 'full':
      return { verdict: 'allow', reason: `Autonomy is "full".` }
  }
}
