import { create } from 'zustand'
import type { AgentEvent, ApprovalAnswer } from '../../../shared/agent-events'
import type { BridgeResult, PendingApproval } from '../../../shared/bridge'
import { getDeskclawApi } from '../bridge'
import { mergePendingApprovals, reduceApprovals } from './reducers'

export interface ApprovalResponse {
  approvalId: string
  bindingHash: string
  answer: ApprovalAnswer
  /** Only sent with a denial: the model sees it. */
  reason?: string
}

interface ApprovalsState {
  pending: PendingApproval[]
  /** Approval ids whose answer is on its way (buttons disabled meanwhile). */
  responding: ReadonlySet<string>
  load(): Promise<void>
  applyEvent(event: AgentEvent): void
  /** Answers a question; `bindingHash` is the question's own, so main can refuse it if the call changed. */
  respond(answer: ApprovalResponse): Promise<BridgeResult<{ accepted: boolean }>>
}

export const useApprovalsStore = create<ApprovalsState>((set, get) => ({
  pending: [],
  responding: new Set(),

  async load() {
    const result = await getDeskclawApi().invoke('approvals.pending', {})
    if (result.ok) set({ pending: mergePendingApprovals(get().pending, result.data, Date.now()) })
  },

  applyEvent(event) {
    const pending = reduceApprovals(get().pending, event)
    if (pending !== get().pending) set({ pending })
  },

  async respond({ approvalId, bindingHash, answer, reason }) {
    set({ responding: new Set(get().responding).add(approvalId) })
    const input = reason ? { approvalId, bindingHash, answer, reason } : { approvalId, bindingHash, answer }
    const result = await getDeskclawApi().invoke('approvals.respond', input)
    const responding = new Set(get().responding)
    responding.delete(approvalId)
    // Accepted or not (already settled, expired), this question is no longer open.
    const settled = result.ok || result.error.code === 'NOT_FOUND'
    set({
      responding,
      pending: settled ? get().pending.filter((a) => a.approvalId !== approvalId) : get().pending
    })
    return result
  }
}))
