import { useEffect } from 'react'
import type { ToolAttachmentRef } from '../../../../shared/agent-events'
import { useT } from '../../i18n'
import { isShownImageType, useAttachmentsStore } from '../../stores'
import { AlertIcon, FileIcon, Spinner, ZoomableImage } from '../common'

/**
 * One image a tool returned: fetched once by id (the store keeps it), shown scaled, enlarged on
 * click. `className` sizes the thumbnail (default: as wide as the card allows); `label` names it.
 */
export function AttachmentImage({
  attachment,
  tool,
  className = 'attachment-thumb',
  label: labelProp
}: {
  attachment: ToolAttachmentRef
  tool: string
  className?: string
  label?: string
}) {
  const t = useT()
  const entry = useAttachmentsStore((s) => s.entries[attachment.id])
  const ensure = useAttachmentsStore((s) => s.ensure)
  const retry = useAttachmentsStore((s) => s.retry)

  useEffect(() => {
    if (!entry) ensure(attachment.id)
  }, [attachment.id, entry, ensure])

  const label = labelProp ?? attachment.name ?? t('attachment.image', { tool })
  // Reserve the image's box while it loads, so the timeline does not jump when it arrives.
  const box =
    attachment.width && attachment.height
      ? { aspectRatio: `${attachment.width} / ${attachment.height}`, width: `min(100%, ${attachment.width}px)` }
      : undefined

  if (!entry || entry.status === 'loading') {
    return (
      <div
        className="attachment-placeholder"
        data-testid="tool-attachment-loading"
        data-attachment-id={attachment.id}
        style={box}
      >
        <Spinner size={12} />
        <span>{t('attachment.loading')}</span>
      </div>
    )
  }

  if (entry.status === 'error') {
    const gone = entry.error.code === 'NOT_FOUND'
    return (
      <div className="attachment-error" data-testid="tool-attachment-error" data-attachment-id={attachment.id}>
        <AlertIcon size={13} />
        <span>{gone ? t('attachment.gone') : t('attachment.loadFailed', { message: t.error(entry.error) })}</span>
        {!gone && (
          <button type="button" className="btn btn-small" onClick={() => retry(attachment.id)}>
            {t('chat.retry')}
          </button>
        )}
      </div>
    )
  }

  return (
    <ZoomableImage
      src={entry.url}
      alt={label}
      className={className}
      testId="tool-attachment-image"
      width={attachment.width}
      height={attachment.height}
      data={{ 'data-attachment-id': attachment.id }}
    />
  )
}

/** A file a tool returned: what it is, not its content. */
function AttachmentFile({ attachment }: { attachment: ToolAttachmentRef }) {
  const t = useT()
  return (
    <div
      className="attachment-file"
      data-testid="tool-attachment-file"
      data-attachment-id={attachment.id}
      title={t('attachment.fileTitle')}
    >
      <FileIcon size={14} />
      <span className="attachment-file-name">{attachment.name ?? t('attachment.unnamed')}</span>
      <span className="attachment-file-meta">
        {attachment.mediaType} · {t.fileSize(attachment.bytes)}
      </span>
    </div>
  )
}

/** The images and files a call returned, under its output. */
export function ToolAttachments({ attachments, tool }: { attachments: readonly ToolAttachmentRef[]; tool: string }) {
  const t = useT()
  return (
    <div className="tool-section" data-testid="tool-attachments">
      <div className="tool-section-label">{t('tool.attachments')}</div>
      <div className="tool-attachments">
        {attachments.map((attachment) =>
          attachment.kind === 'image' && isShownImageType(attachment.mediaType) ? (
            <AttachmentImage key={attachment.id} attachment={attachment} tool={tool} />
          ) : (
            <AttachmentFile key={attachment.id} attachment={attachment} />
          )
        )}
      </div>
    </div>
  )
}
