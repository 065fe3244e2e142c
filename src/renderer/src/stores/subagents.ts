/**
 * A delegate call's sub-agents as the timeline shows them inside the call's card (docs/tools.md,
 * "Sub-agents"): folded from the `subagent_event`s nested under the call.
 */
import type { AgentEvent, AgentEventOf, ToolCallStatus } from '../../../shared/agent-events'

export interface SubagentStep {
  callId: string
  tool: string
  summary: string | null
  status: ToolCallStatus
}

export interface SubagentView {
  childRunId: string
  task: string
  status: 'running' | 'completed' | 'failed' | 'cancelled'
  steps: SubagentStep[]
  /** Its answer so far. */
  text: string
}

export function foldSubagentEvent(list: readonly SubagentView[], nested: AgentEventOf<'subagent_event'>): SubagentView[] {
  const inner = nested.event as unknown as AgentEvent
  const index = list.findIndex((s) => s.childRunId === nested.childRunId)
  const current: SubagentView = index >= 0 ? list[index]! : { childRunId: nested.childRunId, task: nested.task, status: 'running', steps: [], text: '' }
  const next = applyInner(current, inner)
  if (next === current && index >= 0) return list as SubagentView[]
  return index >= 0 ? list.map((s, i) => (i === index ? next : s)) : [...list, next]
}

function applyInner(view: SubagentView, inner: AgentEvent): SubagentView {
  switch (inner.type) {
    case 'text_delta':
      return { ...view, text: view.text + inner.delta }
    case 'tool_call_started':
      // A new step's text replaces the last: the answer is the text after the last call.
      return { ...view, text: '', steps: [...view.steps, { callId: inner.callId, tool: inner.tool, summary: inner.summary ?? null, status: 'running' }] }
    case 'tool_call_completed':
      return { ...view, steps: view.steps.map((s) => (s.callId === inner.callId ? { ...s, status: inner.status } : s)) }
    case 'run_completed':
      return { ...view, status: inner.stopReason === 'cancelled' ? 'cancelled' : 'completed', text: inner.text || view.text }
    case 'run_failed':
      return { ...view, status: 'failed' }
    default:
      return view
  }
}
