import { ATTACHMENT_LIMITS } from '../../../../../shared/message-attachments'
import { type AttachmentProblem, cleanFileName, decodeTextStart, type DraftAttachment, planFile, textPreview } from './files'

let nextId = 1

/** Reads a picked, pasted or dropped file into a draft attachment, or says why it cannot be one. */
export async function readAttachmentFile(file: File): Promise<DraftAttachment | AttachmentProblem> {
  const plan = planFile(file)
  if (plan.kind === 'refuse') return plan.problem
  const id = `draft_${nextId++}`
  try {
    if (plan.kind === 'image') {
      const name = cleanFileName(file.name, `image.${plan.mediaType.slice('image/'.length)}`)
      const url = await dataUrlOf(file, plan.mediaType)
      return { id, kind: 'image', name, size: file.size, mediaType: plan.mediaType, data: url.slice(url.indexOf(',') + 1), url }
    }
    // Only the start is read: that is all that is sent (the rest is cut, with a note to the model).
    const start = new Uint8Array(await file.slice(0, ATTACHMENT_LIMITS.textBytes).arrayBuffer())
    const text = decodeTextStart(start)
    if (text === null) return { code: 'unsupported', name: file.name }
    const name = cleanFileName(file.name, 'file.txt')
    return { id, kind: 'text', name, size: file.size, text, truncated: file.size > ATTACHMENT_LIMITS.textBytes, preview: textPreview(text) }
  } catch {
    return { code: 'unreadable', name: file.name }
  }
}

/** A `data:` URL with the type the file was accepted as (the browser's own may be empty or differ). */
function dataUrlOf(file: Blob, mediaType: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => {
      const url = String(reader.result)
      resolve(`data:${mediaType};base64,${url.slice(url.indexOf(',') + 1)}`)
    }
    reader.onerror = () => reject(reader.error ?? new Error('read failed'))
    reader.readAsDataURL(file)
  })
}
