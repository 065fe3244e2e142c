/** Building blocks shared by the features: dialogs (focus-trapped), icons, notices, images, time and platform helpers. */
export { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog'
export { Dialog, type DialogProps, isDialogOpen } from './Dialog'
export * from './icons'
export { ImageLightbox, type ImageLightboxProps } from './ImageLightbox'
export { Notices } from './Notices'
export { isMac, isModKey, modKeyLabel } from './platform'
export { useNow } from './useNow'
export { ZoomableImage, type ZoomableImageProps } from './ZoomableImage'
