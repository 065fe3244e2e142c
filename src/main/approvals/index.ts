/**
 * Approvals (docs/risk.md, "Approvals"): the broker that asks every front door and holds each
 * question until an answer, a timeout or a cancel; the conversation's grants ("allow for this
 * conversation"); and one step's questions asked one after another in call order. The risk engine
 * judges; this room asks the user and remembers what they answered.
 */
export {
  ApprovalBroker,
  type ApprovalBrokerOptions,
  type ApprovalDecision,
  type ApprovalQuestion,
  type ApprovalResponse
} from './broker'
export { ConversationGrants } from './grants'
export { StepApprovals, type ApprovalAsker } from './step-approvals'
