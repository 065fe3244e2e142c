import { useT } from '../../../i18n'
import { PaperclipIcon } from './PaperclipIcon'

/** Over the chat while files are dragged onto it. */
export function DropHint() {
  const t = useT()
  return (
    <div className="chat-drop-hint" data-testid="drop-hint" aria-hidden="true">
      <PaperclipIcon size={22} />
      <span>{t('attachments.dropHint')}</span>
    </div>
  )
}
