import type { ConversationExport } from '../../../../shared/bridge'

/**
 * Hands an exported conversation to the browser as a file: an <a download> on a Blob URL (a
 * download in the web host; Electron's default download handling asks where to save it).
 */
export function saveExport({ filename, mediaType, content }: ConversationExport): void {
  const url = URL.createObjectURL(new Blob([content], { type: `${mediaType};charset=utf-8` }))
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  // The download has its own reference by now; a minute leaves room for a slow save dialog.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
