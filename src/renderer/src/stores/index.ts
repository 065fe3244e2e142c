/** The renderer's state: zustand stores, the pure reducers behind them, and the cross-store actions. */
export { type ApprovalResponse, useApprovalsStore } from './approvals'
export { useChatStore } from './chat'
export { useConversationsStore } from './conversations'
export { useDesktopStore } from './desktop'
export { useNoticesStore, type Notice } from './notices'
export { useSettingsStore } from './settings'
export { useToolsStore } from './tools'
export { useAttachmentsStore, type AttachmentEntry } from './attachments'
export {
  activeRun,
  attachmentDataUrl,
  buildTimeline,
  catalogueByName,
  type ChatSnapshot,
  isShownImageType,
  type OutputSegment,
  type RunView,
  type TimelineItem,
  type ToolCallRisk,
  type ToolCallView,
  toolVerdictKind,
  type ToolVerdictKind
} from './reducers'
export {
  cancelActiveRun,
  deleteConversation,
  newConversation,
  selectConversation,
  sendMessage,
  startApp
} from './app'
