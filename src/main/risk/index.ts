/** Risk and approvals: the policy that decides when to ask, and the broker that asks every front door. */
export { ApprovalBroker, type ApprovalBrokerOptions, type ApprovalDecision, type ApprovalQuestion } from './broker'
export { decideByCategory, type PolicyDecision, type Verdict } from './policy'
