import { useState } from 'react'
import type { ConversationSummary } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { focusComposer } from '../chat'
import { ChipIcon } from '../devices'
import {
  activeRun,
  deleteConversation,
  newConversation,
  selectConversation,
  useApprovalsStore,
  useChatStore,
  useConversationsStore,
  useNoticesStore,
  useSettingsStore
} from '../../stores'
import { ConfirmDialog, GearIcon, GlobeIcon, modKeyLabel, PlusIcon, ShieldIcon, Spinner, TrashIcon, useNow } from '../common'

export function Sidebar({ onOpenSettings, onOpenDevices }: { onOpenSettings(): void; onOpenDevices(): void }) {
  const t = useT()
  const changeLanguage = useSettingsStore((s) => s.changeLanguage)
  const toggleLanguage = () => void changeLanguage(t.language === 'en' ? 'zh-CN' : 'en')
  const list = useConversationsStore((s) => s.list)
  const loaded = useConversationsStore((s) => s.loaded)
  const selectedId = useConversationsStore((s) => s.selectedId)
  const running = useConversationsStore((s) => s.running)
  const openRunning = useChatStore((s) => (activeRun(s.snapshot) ? s.conversationId : null))
  const pending = useApprovalsStore((s) => s.pending)
  const pushNotice = useNoticesStore((s) => s.push)
  const [confirming, setConfirming] = useState<ConversationSummary | null>(null)
  const now = useNow(30_000)

  const create = async () => {
    const result = await newConversation()
    if (result.ok) focusComposer()
    else pushNotice(t.error(result.error))
  }

  const confirmDelete = async () => {
    const target = confirming
    setConfirming(null)
    if (!target) return
    const result = await deleteConversation(target.id)
    if (!result.ok && result.error.code !== 'NOT_FOUND') pushNotice(t.error(result.error))
  }

  return (
    <aside className="sidebar" aria-label={t('sidebar.conversations')}>
      <div className="sidebar-brand">
        <span className="brand-mark" aria-hidden="true">
          D
        </span>
        <span className="brand-name">{t('app.name')}</span>
      </div>

      <button
        type="button"
        className="btn new-conversation"
        data-testid="new-conversation"
        onClick={() => void create()}
        title={`${t('sidebar.newConversation')} (${modKeyLabel}+N)`}
      >
        <PlusIcon />
        <span>{t('sidebar.newConversation')}</span>
        <kbd>{modKeyLabel}&thinsp;N</kbd>
      </button>

      <div className="sidebar-section-label">{t('sidebar.conversations')}</div>
      <nav className="conversation-list">
        {loaded && list.length === 0 && <p className="sidebar-empty">{t('sidebar.empty')}</p>}
        {list.map((conversation) => {
          const selected = conversation.id === selectedId
          const waiting = pending.some((a) => a.conversationId === conversation.id)
          const busy = running.has(conversation.id) || openRunning === conversation.id
          const title = conversation.title.trim() || t('conversation.untitled')
          return (
            <div
              key={conversation.id}
              className={`conversation-item${selected ? ' selected' : ''}`}
              data-testid="conversation-item"
              data-conversation-id={conversation.id}
            >
              <button
                type="button"
                className="conversation-select"
                aria-current={selected ? 'page' : undefined}
                onClick={() => void selectConversation(conversation.id)}
              >
                <span className="conversation-title">{title}</span>
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
                    <time dateTime={new Date(conversation.updatedAt).toISOString()}>
                      {t.relativeTime(conversation.updatedAt, now)}
                    </time>
                  )}
                </span>
              </button>
              <button
                type="button"
                className="icon-button conversation-delete"
                title={t('sidebar.delete')}
                aria-label={`${t('sidebar.delete')}: ${title}`}
                data-testid="conversation-delete"
                onClick={() => setConfirming(conversation)}
              >
                <TrashIcon size={14} />
              </button>
            </div>
          )
        })}
      </nav>

      <div className="sidebar-footer">
        <button type="button" className="btn btn-ghost" data-testid="devices-button" onClick={onOpenDevices}>
          <ChipIcon />
          <span>{t('sidebar.devices')}</span>
        </button>
        <button type="button" className="btn btn-ghost" data-testid="settings-button" onClick={onOpenSettings}>
          <GearIcon />
          <span>{t('sidebar.settings')}</span>
        </button>
        <button
          type="button"
          className="btn btn-ghost"
          data-testid="language-toggle"
          onClick={toggleLanguage}
          title={t('language.switchToTitle')}
          lang={t.language === 'en' ? 'zh-CN' : 'en'}
        >
          <GlobeIcon />
          <span>{t('language.switchTo')}</span>
        </button>
      </div>

      {confirming && (
        <ConfirmDialog
          title={t('confirm.deleteTitle')}
          body={t('confirm.deleteBody', { title: confirming.title.trim() || t('conversation.untitled') })}
          confirmLabel={t('confirm.delete')}
          cancelLabel={t('confirm.cancel')}
          danger
          onConfirm={() => void confirmDelete()}
          onCancel={() => setConfirming(null)}
        />
      )}
    </aside>
  )
}
