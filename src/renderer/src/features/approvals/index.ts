/** The approval modal: the oldest pending risky tool call, answered with Allow once or Deny. */
export { ApprovalModal } from './ApprovalModal'
