/** Building blocks shared by the features: dialogs (focus-trapped), icons, notices, time and platform helpers. */
export { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog'
export { Dialog, type DialogProps, isDialogOpen } from './Dialog'
export * from './icons'
export { ImageViewer, type ImageViewerProps } from './ImageViewer'
export { Notices } from './Notices'
export { isMac, isModKey, modKeyLabel } from './platform'
export { useNow } from './useNow'
