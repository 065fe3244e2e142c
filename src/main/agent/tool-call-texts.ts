import { formatToolText, type ApprovalResolver, type RiskAssessment, type RunnerTextKey, type ToolText } from '../../shared'
import type { AnyTool } from '../tools'

/**
 * The tool's own one-line summary: `summary` in English (the CLI, the store's column, exports) and,
 * when the tool gave it as a message code, `summaryText` for the UI to say in its language. A
 * summary that throws is no reason to fail the call.
 */
export function describeCall(definition: AnyTool, args: Record<string, unknown>): { summary?: string; summaryText?: ToolText } {
  try {
    const line = definition.summary(args)
    if (typeof line === 'string') return line ? { summary: line } : {}
    const english = formatToolText(line, definition.messages, 'en')
    return english ? { summary: english, summaryText: line } : {}
  } catch {
    return {}
  }
}

/** One line for the model and the approval question: the findings that decided the verdict. */
export function explain(assessment: RiskAssessment, verdict: 'ask' | 'deny'): string {
  const decisive = assessment.findings.filter((f) => f.verdict === verdict)
  const messages = [...new Set((decisive.length > 0 ? decisive : assessment.findings).map((f) => f.message))]
  return messages.slice(0, 3).join(' ') || (verdict === 'deny' ? 'Denied by policy.' : 'Needs your approval.')
}

/** A line of the runner's own (docs/architecture.md, "Texts from main"): translated by the UI, not a tool. */
export function runnerText(key: RunnerTextKey, params?: Record<string, string | number>): ToolText {
  return params ? { key, params } : { key }
}

/** The decisive finding of a denial: its rule lets the UI translate it; its message is the English fallback. */
export function policyDenial(assessment: RiskAssessment): ToolText {
  const decisive = assessment.findings.find((f) => f.verdict === 'deny') ?? assessment.findings[0]
  return decisive ? runnerText('toolRun.deniedByPolicy', { rule: decisive.rule, reason: decisive.message }) : runnerText('toolRun.deniedByPolicy', { rule: '', reason: '' })
}

/** Who said no, and what they wrote (the user's own words stay as they are). */
export function answerDenial(by: ApprovalResolver, reason: string | undefined): ToolText {
  if (by === 'user') return reason ? runnerText('toolRun.deniedByUserReason', { reason }) : runnerText('toolRun.deniedByUser')
  return runnerText(`toolRun.notApproved.${by}`)
}

/** What the model is told when a question was answered no. */
export function answerDenialForModel(tool: string, by: ApprovalResolver, reason: string | undefined): string {
  // The reason is the person's own words: end it with a full stop before the next sentence (issue 22, item 7).
  const why = reason ? ` Reason: ${withFullStop(reason)}` : ''
  return by === 'user'
    ? `The user denied this ${tool} call.${why} It did not run. Do not repeat it unchanged.`
    : `This ${tool} call was not approved (${by}).${why} It did not run.`
}

/** `text` ending in sentence punctuation (Latin or CJK), a full stop added when it has none. */
export function withFullStop(text: string): string {
  const trimmed = text.trim()
  return /[.!?…。！？]["'”’)）]*$/u.test(trimmed) ? trimmed : `${trimmed}.`
}
