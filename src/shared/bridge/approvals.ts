/**
 * Approvals over the bridge: list the pending questions and answer one. The approval schemas
 * themselves live in agent-events (they ride the event stream) and are re-exported here.
 */
import { z } from 'zod'
import { ApprovalAnswerSchema, ApprovalResolverSchema, PendingApprovalSchema } from '../agent-events'
import { defineCall } from './define-call'

export const approvalCalls = {
  'approvals.pending': defineCall(z.object({}), z.array(PendingApprovalSchema)),
  'approvals.respond': defineCall(
    z.object({
      approvalId: z.string(),
      answer: ApprovalAnswerSchema,
      reason: z.string().max(2000).optional(),
      /** The bindingHash of the question as shown; a mismatch is refused (the call changed). */
      bindingHash: z.string()
    }),
    z.object({ accepted: z.boolean() })
  )
} as const

export { ApprovalAnswerSchema, ApprovalResolverSchema, PendingApprovalSchema }
export type { PendingApproval } from '../agent-events'
