import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { useT } from '../../i18n'
import { Dialog } from './Dialog'
import { XIcon } from './icons'

export interface ImageLightboxProps {
  /** A `data:` URL. */
  src: string
  alt: string
  /** Shown above the image (a file name, what the image is). */
  title: string
  onClose(): void
}

/**
 * An image enlarged over the window: as large as it is, but never larger than the viewport
 * (scaled down to fit); "Actual size" (or a click on a scaled image) shows it pixel for pixel,
 * scrolling. A dialog: focus moves in and comes back; Esc, the close button or a click outside
 * the image close it.
 */
export function ImageLightbox({ src, alt, title, onClose }: ImageLightboxProps) {
  const t = useT()
  const titleId = useId()
  const imageRef = useRef<HTMLImageElement>(null)
  const [actualSize, setActualSize] = useState(false)
  /** Whether the fitted image is smaller than the image itself (only then is there an actual size to show). */
  const [scaled, setScaled] = useState(false)

  const measure = useCallback(() => {
    const image = imageRef.current
    if (!image || actualSize || !image.naturalWidth) return
    setScaled(image.naturalWidth > image.clientWidth + 1 || image.naturalHeight > image.clientHeight + 1)
  }, [actualSize])

  useEffect(() => {
    measure()
    window.addEventListener('resize', measure)
    return () => window.removeEventListener('resize', measure)
  }, [measure])

  const toggleLabel = actualSize ? t('image.fitToWindow') : t('image.actualSize')

  return (
    <Dialog
      labelledBy={titleId}
      className={`image-lightbox${actualSize ? ' actual-size' : ''}`}
      testId="image-lightbox"
      onBackdrop={onClose}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault()
          event.stopPropagation()
          onClose()
        }
      }}
    >
      <div className="image-lightbox-head">
        <h2 id={titleId} className="image-lightbox-title" title={title}>
          {title}
        </h2>
        {(scaled || actualSize) && (
          <button
            type="button"
            className="btn btn-small"
            data-testid="image-lightbox-zoom"
            aria-pressed={actualSize}
            onClick={() => setActualSize((on) => !on)}
          >
            {t('image.actualSize')}
          </button>
        )}
        <button
          type="button"
          className="icon-button"
          data-testid="image-lightbox-close"
          onClick={onClose}
          aria-label={t('image.close')}
          title={t('image.close')}
        >
          <XIcon />
        </button>
      </div>
      <div
        className="image-lightbox-body"
        onClick={(event) => {
          // Around the fitted image counts as outside it (not when scrolling a large one).
          if (event.target === event.currentTarget && !actualSize) onClose()
        }}
      >
        <img
          ref={imageRef}
          src={src}
          alt={alt}
          data-testid="image-lightbox-image"
          className={scaled || actualSize ? 'zoomable' : undefined}
          title={scaled || actualSize ? toggleLabel : undefined}
          onLoad={measure}
          onClick={() => {
            if (scaled || actualSize) setActualSize((on) => !on)
          }}
        />
      </div>
    </Dialog>
  )
}
