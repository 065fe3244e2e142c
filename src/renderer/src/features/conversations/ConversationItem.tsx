import { useEffect, useRef, useState } from 'react'
import type { ConversationExportFormat, ConversationSummary } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { selectConversation, useConversationsStore, useNoticesStore } from '../../stores'
import { ShieldIcon, Spinner, TrashIcon } from '../common'
import { ConversationMenu, type MenuItem } from './ConversationMenu'
import { saveExport } from './download'
import { DownloadIcon, MoreIcon, PencilIcon, PinIcon } from './icons'

export interface ConversationItemProps {
  conversation: ConversationSummary
  selected: boolean
  waiting: boolean
  busy: boolean
  now: number
  onDelete(conversation: ConversationSummary): void
}

/**
 * One row of the sidebar: the conversation (click to open), and on hover or keyboard focus its
 * actions: pin, rename (in place: Enter saves, Escape cancels) and a menu with export and delete.
 */
export function ConversationItem({ conversation, selected, waiting, busy, now, onDelete }: ConversationItemProps) {
  const t = useT()
  const rename = useConversationsStore((s) => s.rename)
  const pin = useConversationsStore((s) => s.pin)
  const exportFile = useConversationsStore((s) => s.exportFile)
  const pushNotice = useNoticesStore((s) => s.push)
  const [draft, setDraft] = useState<string | null>(null)
  const [menuOpen, setMenuOpen] = useState(false)
  const selectButton = useRef<HTMLButtonElement>(null)
  const renameButton = useRef<HTMLButtonElement>(null)
  const moreButton = useRef<HTMLButtonElement>(null)
  /** Where focus goes once the rename field closes (it unmounts, so focus would fall to the page). */
  const focusAfterRename = useRef<'select' | 'rename' | null>(null)
  const pinned = conversation.pinnedAt !== undefined
  const title = conversation.title.trim() || t('conversation.untitled')

  useEffect(() => {
    if (draft !== null || !focusAfterRename.current) return
    ;(focusAfterRename.current === 'select' ? selectButton : renameButton).current?.focus()
    focusAfterRename.current = null
  }, [draft])

  /** True while the field is open: Enter, Escape and blur may each try to close it; the first one does. */
  const renaming = useRef(false)

  const startRename = () => {
    renaming.current = true
    setDraft(conversation.title)
  }

  const finishRename = async (save: boolean) => {
    if (!renaming.current || draft === null) return
    renaming.current = false
    const value = draft.trim()
    focusAfterRename.current = save ? 'select' : 'rename'
    setDraft(null)
    if (!save || !value || value === conversation.title) return
    const result = await rename(conversation.id, value.slice(0, 200))
    if (!result.ok) pushNotice(t.error(result.error))
  }

  const togglePin = async () => {
    const result = await pin(conversation.id, !pinned)
    if (!result.ok) pushNotice(t.error(result.error))
  }

  const download = async (format: ConversationExportFormat) => {
    const result = await exportFile(conversation.id, format, t.language)
    if (result.ok) saveExport(result.data)
    else pushNotice(t.error(result.error))
  }

  const menuItems: MenuItem[] = [
    { key: 'rename', label: t('sidebar.rename'), icon: <PencilIcon />, testId: 'conversation-menu-rename', onSelect: startRename },
    {
      key: 'pin',
      label: pinned ? t('sidebar.unpin') : t('sidebar.pin'),
      icon: <PinIcon filled={pinned} />,
      testId: 'conversation-menu-pin',
      onSelect: () => void togglePin()
    },
    {
      key: 'markdown',
      label: t('sidebar.exportMarkdown'),
      icon: <DownloadIcon />,
      testId: 'conversation-export-markdown',
      onSelect: () => void download('markdown')
    },
    {
      key: 'json',
      label: t('sidebar.exportJson'),
      icon: <DownloadIcon />,
      testId: 'conversation-export-json',
      onSelect: () => void download('json')
    },
    {
      key: 'delete',
      label: t('sidebar.delete'),
      icon: <TrashIcon size={15} />,
      danger: true,
      testId: 'conversation-delete',
      onSelect: () => onDelete(conversation)
    }
  ]

  return (
    <div
      className={`conversation-item${selected ? ' selected' : ''}${pinned ? ' pinned' : ''}${menuOpen ? ' menu-open' : ''}${draft !== null ? ' renaming' : ''}`}
      data-testid="conversation-item"
      data-conversation-id={conversation.id}
      data-pinned={pinned ? 'true' : 'false'}
    >
      {draft !== null ? (
        <input
          className="text-input conversation-rename-input"
          data-testid="conversation-rename-input"
          value={draft}
          maxLength={200}
          autoFocus
          aria-label={t('sidebar.renameLabel')}
          onFocus={(event) => event.currentTarget.select()}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={() => void finishRename(true)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault()
              void finishRename(true)
            } else if (event.key === 'Escape') {
              // Not the window's Escape (which stops a run).
              event.preventDefault()
              event.stopPropagation()
              void finishRename(false)
            }
          }}
        />
      ) : (
        <button
          ref={selectButton}
          type="button"
          className="conversation-select"
          aria-current={selected ? 'page' : undefined}
          onClick={() => void selectConversation(conversation.id)}
          onKeyDown={(event) => {
            if (event.key === 'F2') {
              event.preventDefault()
              startRename()
            }
          }}
        >
          <span className="conversation-title">
            {pinned && <PinIcon size={11} filled className="conversation-pinned-mark" />}
            <span className="conversation-title-text">{title}</span>
          </span>
          <span className="conversation-meta">
            {waiting ? (
              <span className="conversation-flag warn" title={t('sidebar.awaitingApproval')}>
                <ShieldIcon size={12} />
                {t('sidebar.awaitingApproval')}
              </span>
            ) : busy ? (
              <span className="conversation-flag">
                <Spinner size={10} />
                {t('sidebar.running')}
              </span>
            ) : (
              <time dateTime={new Date(conversation.updatedAt).toISOString()}>{t.relativeTime(conversation.updatedAt, now)}</time>
            )}
          </span>
        </button>
      )}
      {draft === null && (
        <div className="conversation-actions">
          <button
            type="button"
            className={`icon-button conversation-pin${pinned ? ' on' : ''}`}
            data-testid="conversation-pin"
            aria-pressed={pinned}
            title={pinned ? t('sidebar.unpin') : t('sidebar.pin')}
            aria-label={`${pinned ? t('sidebar.unpin') : t('sidebar.pin')}: ${title}`}
            onClick={() => void togglePin()}
          >
            <PinIcon filled={pinned} />
          </button>
          <button
            ref={renameButton}
            type="button"
            className="icon-button conversation-rename"
            data-testid="conversation-rename"
            title={`${t('sidebar.rename')} (F2)`}
            aria-label={`${t('sidebar.rename')}: ${title}`}
            onClick={startRename}
          >
            <PencilIcon />
          </button>
          <button
            ref={moreButton}
            type="button"
            className="icon-button conversation-more"
            data-testid="conversation-menu"
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            title={t('sidebar.more')}
            aria-label={`${t('sidebar.more')}: ${title}`}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <MoreIcon />
          </button>
        </div>
      )}
      {menuOpen && moreButton.current && (
        <ConversationMenu
          anchor={moreButton.current}
          label={`${t('sidebar.more')}: ${title}`}
          items={menuItems}
          onClose={(restoreFocus) => {
            setMenuOpen(false)
            if (restoreFocus) moreButton.current?.focus()
          }}
        />
      )}
    </div>
  )
}
