import { type ClipboardEvent, useCallback } from 'react'
import type { BridgeResult } from '../../../../../shared/bridge'
import type { MessageAttachmentInput } from '../../../../../shared/message-attachments'
import { useT } from '../../../i18n'
import { useNoticesStore } from '../../../stores'
import { PASTE_AS_FILE_CHARS, toAttachmentInput } from './files'
import { useAttachmentDraftStore } from './store'

/**
 * The composer's side of attachments: paste, what a send carries, and what happens after it
 * (what was sent is dropped from the draft; a text-only model's note is said to the user).
 */
export function useComposerAttachments() {
  const t = useT()
  const count = useAttachmentDraftStore((s) => s.items.length)
  const add = useAttachmentDraftStore((s) => s.add)
  const addPastedText = useAttachmentDraftStore((s) => s.addPastedText)
  const pushNotice = useNoticesStore((s) => s.push)

  /**
   * Files on the clipboard (a screenshot, files copied in a file manager) become attachments, not
   * text; so does a long text, whole (the chip shows its size, its start and the limit).
   */
  const onPaste = useCallback(
    (event: ClipboardEvent<HTMLElement>) => {
      const files = Array.from(event.clipboardData.files)
      if (files.length > 0) {
        event.preventDefault()
        void add(files)
        return
      }
      const text = event.clipboardData.getData('text/plain')
      if (text.length <= PASTE_AS_FILE_CHARS) return
      event.preventDefault()
      void addPastedText(text)
    },
    [add, addPastedText]
  )

  /** The attachments to send now, and what to do with agent.send's answer. */
  const take = useCallback(() => {
    const sent = useAttachmentDraftStore.getState().items
    return {
      inputs: sent.map(toAttachmentInput) as MessageAttachmentInput[],
      settled(result: BridgeResult<{ runId: string; unseenImages?: number }>) {
        if (!result.ok) return
        useAttachmentDraftStore.getState().removeSent(sent.map((item) => item.id))
        if (result.data.unseenImages) pushNotice(t('attachments.unseen', { n: result.data.unseenImages }), 'info')
      }
    }
  }, [pushNotice, t])

  return { count, onPaste, take }
}
