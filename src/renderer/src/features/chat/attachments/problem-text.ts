import { ATTACHMENT_LIMITS } from '../../../../../shared/message-attachments'
import type { Translator } from '../../../i18n'
import type { AttachmentProblem } from './files'

/** One sentence saying why a file was not attached, with the limit it broke. */
export function problemText(t: Translator, problem: AttachmentProblem): string {
  switch (problem.code) {
    case 'imageTooLarge':
      return t('attachments.imageTooLarge', {
        name: problem.name,
        size: t.fileSize(problem.size),
        limit: t.fileSize(ATTACHMENT_LIMITS.imageBytes)
      })
    case 'unsupported':
      return t('attachments.unsupported', { name: problem.name })
    case 'unreadable':
      return t('attachments.unreadable', { name: problem.name })
    case 'tooMany':
      return t('attachments.tooMany', { name: problem.name, n: ATTACHMENT_LIMITS.perMessage })
    case 'totalTooLarge':
      return t('attachments.totalTooLarge', { name: problem.name, limit: t.fileSize(ATTACHMENT_LIMITS.totalBytes) })
  }
}
