import { useId } from 'react'
import { useT } from '../../i18n'
import { Dialog } from './Dialog'
import { XIcon } from './icons'

export interface ImageViewerProps {
  /** A `data:` URL. */
  src: string
  alt: string
  /** Shown above the image (a file name, what the image is). */
  title: string
  onClose(): void
}

/** An image at full size (scrolls when larger than the window), in a dialog: Esc, the close button or the backdrop close it. */
export function ImageViewer({ src, alt, title, onClose }: ImageViewerProps) {
  const t = useT()
  const titleId = useId()
  return (
    <Dialog
      labelledBy={titleId}
      className="image-viewer"
      testId="image-viewer"
      onBackdrop={onClose}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault()
          event.stopPropagation()
          onClose()
        }
      }}
    >
      <div className="image-viewer-head">
        <h2 id={titleId} className="image-viewer-title" title={title}>
          {title}
        </h2>
        <button
          type="button"
          className="icon-button"
          data-testid="image-viewer-close"
          onClick={onClose}
          aria-label={t('image.close')}
        >
          <XIcon />
        </button>
      </div>
      <div className="image-viewer-body">
        <img src={src} alt={alt} data-testid="image-viewer-image" />
      </div>
    </Dialog>
  )
}
