import { useRef } from 'react'
import { useT } from '../../../i18n'
import { PaperclipIcon } from './PaperclipIcon'
import { useAttachmentDraftStore } from './store'

/**
 * The paperclip: a real button (Tab, Enter, Space) that opens the system file picker. Every type
 * is offered; what is not an image or text is refused with a reason after picking.
 */
export function AttachButton() {
  const t = useT()
  const input = useRef<HTMLInputElement>(null)
  const add = useAttachmentDraftStore((s) => s.add)
  return (
    <>
      <button
        type="button"
        className="composer-button attach"
        data-testid="attach-button"
        aria-label={t('attachments.attach')}
        title={t('attachments.attach')}
        onClick={() => input.current?.click()}
      >
        <PaperclipIcon size={17} />
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        data-testid="attach-input"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? [])
          event.target.value = '' // the same file can be picked again after a remove
          if (files.length > 0) void add(files)
        }}
      />
    </>
  )
}
