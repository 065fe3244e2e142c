/** The approval modal: the oldest pending risky tool call with its verdict and findings, answered allow once / for this conversation / always, or deny. */
export { ApprovalModal } from './ApprovalModal'
