import { useEffect, useRef, useState } from 'react'
import type { ConversationSearchResult, ConversationSummary } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { focusComposer } from '../chat'
import { ChipIcon } from '../devices'
import { MemoryIcon } from '../memory'
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
import { ConfirmDialog, GearIcon, GlobeIcon, isDialogOpen, isModKey, modKeyLabel, PlusIcon, useNow } from '../common'
import { isNarrowWindow, SidebarToggle, useSidebarStore } from '../layout'
import { ThemeToggle } from '../theme'
import { ConversationItem } from './ConversationItem'
import { SearchBox, SearchResults, useConversationSearch } from './ConversationSearch'

export interface SidebarProps {
  onOpenSettings(): void
  onOpenDevices(): void
  onOpenMemory(): void
  onOpenSchedules(): void
  /** A conversation was opened or created from here (the narrow window's drawer then closes). */
  onNavigate?(): void
}

export function Sidebar({ onOpenSettings, onOpenDevices, onOpenMemory, onOpenSchedules, onNavigate }: SidebarProps) {
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
  const search = useConversationSearch()
  const searchInput = useRef<HTMLInputElement>(null)
  const [activeResult, setActiveResult] = useState(0)
  const searching = search.query.trim() !== ''

  // Ctrl+K (⌘K on macOS) puts the caret in the search box, from anywhere but a dialog; a hidden
  // sidebar (collapsed, or a narrow window's closed drawer) shows itself first.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isDialogOpen()) return
      if (isModKey(event) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault()
        const focusSearch = () => {
          searchInput.current?.focus()
          searchInput.current?.select()
        }
        const layout = useSidebarStore.getState()
        const narrow = isNarrowWindow()
        if (narrow ? layout.drawerOpen : !layout.collapsed) {
          focusSearch()
        } else {
          layout.toggle(narrow)
          requestAnimationFrame(focusSearch) // once the sidebar is rendered visible
        }
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])

  // Results change under the highlight: keep it on a row that exists.
  useEffect(() => {
    if (activeResult >= search.results.length) setActiveResult(0)
  }, [search.results, activeResult])

  const create = async () => {
    const result = await newConversation()
    if (result.ok) {
      onNavigate?.()
      focusComposer()
    } else {
      pushNotice(t.error(result.error))
    }
  }

  const openResult = (result: ConversationSearchResult) => {
    search.setQuery('')
    setActiveResult(0)
    void selectConversation(result.conversationId)
    onNavigate?.()
    focusComposer()
  }

  const confirmDelete = async () => {
    const target = confirming
    setConfirming(null)
    if (!target) return
    const result = await deleteConversation(target.id)
    if (!result.ok && result.error.code !== 'NOT_FOUND') pushNotice(t.error(result.error))
  }

  const pinned = list.filter((c) => c.pinnedAt !== undefined)
  const others = list.filter((c) => c.pinnedAt === undefined)
  const item = (conversation: ConversationSummary) => (
    <ConversationItem
      key={conversation.id}
      conversation={conversation}
      selected={conversation.id === selectedId}
      waiting={pending.some((a) => a.conversationId === conversation.id)}
      busy={running.has(conversation.id) || openRunning === conversation.id}
      now={now}
      onDelete={setConfirming}
    />
  )

  return (
    <aside id="app-sidebar" className="sidebar" aria-label={t('sidebar.conversations')} data-testid="sidebar">
      <div className="sidebar-brand">
        <span className="brand-mark" aria-hidden="true">
          D
        </span>
        <span className="brand-name">{t('app.name')}</span>
        <span className="sidebar-brand-tools">
          <ThemeToggle />
          <SidebarToggle place="sidebar" />
        </span>
      </div>

      <SearchBox
        inputRef={searchInput}
        search={search}
        activeIndex={activeResult}
        setActiveIndex={setActiveResult}
        onOpen={openResult}
      />

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

      <nav
        className="conversation-list"
        aria-label={t('sidebar.conversations')}
        // Picking a row (even the open one) counts as navigating; its pin, rename and menu buttons do not.
        onClick={(event) => {
          if ((event.target as Element).closest('.conversation-select')) onNavigate?.()
        }}
      >
        {searching ? (
          <SearchResults search={search} activeIndex={activeResult} setActiveIndex={setActiveResult} onOpen={openResult} />
        ) : (
          <>
            {pinned.length > 0 && (
              <div className="conversation-group" role="group" aria-labelledby="conversations-pinned-label" data-testid="pinned-group">
                <div className="sidebar-section-label" id="conversations-pinned-label">
                  {t('sidebar.pinned')}
                </div>
                {pinned.map(item)}
              </div>
            )}
            <div className="conversation-group" role="group" aria-labelledby="conversations-all-label">
              <div className="sidebar-section-label" id="conversations-all-label">
                {t('sidebar.conversations')}
              </div>
              {loaded && list.length === 0 && <p className="sidebar-empty">{t('sidebar.empty')}</p>}
              {others.map(item)}
            </div>
          </>
        )}
      </nav>

      <div className="sidebar-footer">
        <button type="button" className="btn btn-ghost" data-testid="schedules-button" onClick={onOpenSchedules}>
          <MemoryIcon />
          <span>{t('sidebar.schedules')}</span>
        </button>
        <button type="button" className="btn btn-ghost" data-testid="memory-button" onClick={onOpenMemory}>
          <MemoryIcon />
          <span>{t('sidebar.memory')}</span>
        </button>
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
