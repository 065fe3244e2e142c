import { useT } from '../../i18n'
import { useNoticesStore } from '../../stores'
import { XIcon } from './icons'

export function Notices() {
  const t = useT()
  const notices = useNoticesStore((s) => s.notices)
  const dismiss = useNoticesStore((s) => s.dismiss)
  if (notices.length === 0) return null
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.map((notice) => (
        <div key={notice.id} className={`notice ${notice.tone}`} data-testid="notice">
          <span>{notice.text}</span>
          <button type="button" className="icon-button" onClick={() => dismiss(notice.id)} aria-label={t('notice.dismiss')}>
            <XIcon size={14} />
          </button>
        </div>
      ))}
    </div>
  )
}
