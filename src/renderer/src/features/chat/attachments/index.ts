/** Attachments in messages (docs/architecture.md, "Attachments in messages"): the composer's draft, picker, chips, paste and drop, and the sent message's thumbnails. */
export { AttachButton } from './AttachButton'
export { AttachmentChips, AttachmentProblems } from './AttachmentChips'
export { DropHint } from './DropHint'
export { MessageAttachments } from './MessageAttachments'
export { useAttachmentDrop } from './use-attachment-drop'
export { useComposerAttachments } from './use-composer-attachments'
export { useAttachmentDraftStore } from './store'
