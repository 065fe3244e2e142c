/** The renderer's state: zustand stores, the pure reducers behind them, and the cross-store actions. */
export { type ApprovalResponse, useApprovalsStore } from './approvals'
export { useChatStore } from './chat'
export { applyAtEndFor, NEW_CONVERSATION, PALETTE_TASKS, useApplyAtEndStore } from './apply-at-end'
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
  type CompactionView,
  type TimelineItem,
  type ToolCallRisk,
  type ToolCallView,
  type ToolStep,
  toolVerdictKind,
  type ToolVerdictKind
} from './reducers'
export { chatPath, type ChatPath, endIsNoteworthy, RUN_END_ANCHOR, selectChatPath } from './versions'
export { regenerateAnswer, resendEdited } from './resend'
export {
  cancelActiveRun,
  deleteConversation,
  newConversation,
  selectConversation,
  sendMessage,
  startApp
} from './app'
