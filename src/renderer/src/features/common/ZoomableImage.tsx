import { useState } from 'react'
import { useT } from '../../i18n'
import { ImageLightbox } from './ImageLightbox'

export interface ZoomableImageProps {
  /** A `data:` URL. */
  src: string
  alt: string
  /** The lightbox's heading (default: `alt`). */
  title?: string
  /** The thumbnail button's class (its size and frame where it is shown). */
  className: string
  /** The `<img>`'s test id (kept stable for the e2e tests). */
  testId: string
  width?: number
  height?: number
  /** More `data-*` attributes for the `<img>`. */
  data?: Readonly<Record<`data-${string}`, string>>
}

/** An image shown small, enlarged in a lightbox on click (tool attachments, an approval's preview). */
export function ZoomableImage({ src, alt, title, className, testId, width, height, data }: ZoomableImageProps) {
  const t = useT()
  const [open, setOpen] = useState(false)
  return (
    <>
      <button
        type="button"
        className={`zoomable-thumb ${className}`}
        aria-label={t('image.enlarge')}
        aria-haspopup="dialog"
        title={t('image.enlarge')}
        onClick={() => setOpen(true)}
      >
        <img src={src} alt={alt} width={width} height={height} data-testid={testId} {...data} />
      </button>
      {open && <ImageLightbox src={src} alt={alt} title={title ?? alt} onClose={() => setOpen(false)} />}
    </>
  )
}
