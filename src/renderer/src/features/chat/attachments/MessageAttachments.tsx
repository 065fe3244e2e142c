import type { ToolAttachmentRef } from '../../../../../shared/agent-events'
import { useT } from '../../../i18n'
import { isShownImageType } from '../../../stores'
import { FileIcon } from '../../common'
import { AttachmentImage } from '../../timeline'

/** What the user attached to a message, above its bubble: image thumbnails (enlarged on click) and file names. */
export function MessageAttachments({ attachments }: { attachments: readonly ToolAttachmentRef[] }) {
  const t = useT()
  return (
    <div className="message-attachments" data-testid="message-attachments" role="group" aria-label={t('attachments.sent')}>
      {attachments.map((attachment) =>
        attachment.kind === 'image' && isShownImageType(attachment.mediaType) ? (
          <AttachmentImage
            key={attachment.id}
            attachment={attachment}
            tool=""
            label={attachment.name ?? t('attachments.image')}
            className="attachment-thumb message-attachment-thumb"
          />
        ) : (
          <div key={attachment.id} className="attachment-file" data-testid="message-attachment-file" data-attachment-id={attachment.id}>
            <FileIcon size={14} />
            <span className="attachment-file-name">{attachment.name ?? t('attachment.unnamed')}</span>
            <span className="attachment-file-meta">{t.fileSize(attachment.bytes)}</span>
          </div>
        )
      )}
    </div>
  )
}
