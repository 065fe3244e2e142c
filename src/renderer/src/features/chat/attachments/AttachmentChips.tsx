import { ATTACHMENT_LIMITS } from '../../../../../shared/message-attachments'
import { useT } from '../../../i18n'
import { FileIcon, XIcon } from '../../common'
import { problemText } from './problem-text'
import { useAttachmentDraftStore } from './store'

/** The next message's attachments: a thumbnail or file icon, the name, the size, and a remove button. */
export function AttachmentChips() {
  const t = useT()
  const items = useAttachmentDraftStore((s) => s.items)
  const remove = useAttachmentDraftStore((s) => s.remove)
  if (items.length === 0) return null
  return (
    <ul className="attachment-chips" data-testid="attachment-chips" aria-label={t('attachments.list')}>
      {items.map((item) => (
        <li key={item.id} className="attachment-chip" data-testid="attachment-chip" data-kind={item.kind} title={item.name}>
          {item.kind === 'image' ? (
            <img className="attachment-chip-thumb" src={item.url} alt="" data-testid="attachment-chip-thumb" />
          ) : (
            <span className="attachment-chip-icon" aria-hidden="true">
              <FileIcon size={16} />
            </span>
          )}
          <span className="attachment-chip-text">
            <span className="attachment-chip-name">{item.name}</span>
            <span className="attachment-chip-meta">
              {item.kind === 'image' ? t('attachments.image') : item.pasted ? t('attachments.pastedText') : t('attachments.textFile')} ·{' '}
              {t.fileSize(item.size)}
              {item.kind === 'text' &&
                (item.truncated
                  ? ` · ${t('attachments.truncated', { limit: t.fileSize(ATTACHMENT_LIMITS.textBytes) })}`
                  : item.pasted && ` · ${t('attachments.limit', { limit: t.fileSize(ATTACHMENT_LIMITS.textBytes) })}`)}
            </span>
            {item.kind === 'text' && item.preview && (
              <span className="attachment-chip-preview" data-testid="attachment-chip-preview">
                {item.preview}
              </span>
            )}
          </span>
          <button
            type="button"
            className="attachment-chip-remove"
            data-testid="attachment-remove"
            aria-label={t('attachments.remove', { name: item.name })}
            title={t('attachments.remove', { name: item.name })}
            onClick={() => remove(item.id)}
          >
            <XIcon size={13} />
          </button>
        </li>
      ))}
    </ul>
  )
}

/** Why files were not attached (too large, not an image or text, too many), until dismissed or the next add. */
export function AttachmentProblems() {
  const t = useT()
  const problems = useAttachmentDraftStore((s) => s.problems)
  const dismiss = useAttachmentDraftStore((s) => s.dismissProblems)
  if (problems.length === 0) return null
  return (
    <div className="composer-error attachment-problems" role="alert" data-testid="attachment-error">
      <ul>
        {problems.map((problem, index) => (
          <li key={index}>{problemText(t, problem)}</li>
        ))}
      </ul>
      <button type="button" className="attachment-problems-dismiss" aria-label={t('attachments.dismiss')} title={t('attachments.dismiss')} onClick={dismiss}>
        <XIcon size={13} />
      </button>
    </div>
  )
}
