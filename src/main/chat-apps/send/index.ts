/** The send-text task into a chat app (docs/desktop.md, "Sending messages"): its two ways, limits, queue and watermark. */
export { ChatSender, type ChatSenderOptions, type ChatSenderSettings, type SendTextInput, type SendTextOutcome } from './chat-sender'
export { screenChatSender, sendTextByFirstWay, type ChatSendWay } from './chat-send-way'
export { treeChatSender } from './tree-chat-sender'
export { endsWithText } from './tree-newest-message'
export { SEND_REASONS, reasonText, type SendReason, type SendReasonCode } from './send-reasons'
export { checkSendAllowed, MemorySendLog, storeSendLog, type ChatSendStore, type SendLimitSettings, type SendLog, type SendRecord, type SendRefusal } from './send-limits'
export {
  sendText,
  SEND_STEPS,
  type ConfirmAnswer,
  type SendConfirmation,
  type SendStatus,
  type SendStep,
  type SendStepName,
  type SendTextResult
} from './send-text'
export { newestText, readsSentMessage, readsText } from './reads-text'
export { TaskQueue, TaskTimeoutError, type TaskDeadline } from './task-queue'
export { applyWatermark, DEFAULT_WATERMARK_SUFFIX, ZERO_WIDTH_MARK } from './watermark'
