import { useEffect, useState } from 'react'
import { ApprovalModal } from './features/approvals'
import { ChatView, focusComposer } from './features/chat'
import { isDialogOpen, isModKey, Notices } from './features/common'
import { ConnectionBanner } from './features/connection'
import { Sidebar } from './features/conversations'
import { DesktopBanner } from './features/desktop'
import { DevicesPanel } from './features/devices'
import { FirstRunSetup } from './features/first-run'
import { MemoryPanel } from './features/memory'
import { SchedulesPanel } from './features/schedules'
import { dismissDrawer, focusSidebarToggle, SidebarToggle, useNarrowWindow, useSidebarStore } from './features/layout'
import { SettingsPanel, type SettingsSection } from './features/settings'
import { useAppliedTheme } from './features/theme'
import { useLanguage, useT } from './i18n'
import { activeRun, cancelActiveRun, newConversation, startApp, useChatStore, useNoticesStore } from './stores'

export function App() {
  const t = useT()
  const language = useLanguage()
  const [settingsOpen, setSettingsOpen] = useState(false)
  /** The section Settings opens at (the autonomy chip opens Safety); null: the top. */
  const [settingsSection, setSettingsSection] = useState<SettingsSection | null>(null)
  const [devicesOpen, setDevicesOpen] = useState(false)
  const [memoryOpen, setMemoryOpen] = useState(false)
  const [schedulesOpen, setSchedulesOpen] = useState(false)
  const narrow = useNarrowWindow()
  const collapsed = useSidebarStore((s) => s.collapsed)
  const drawerOpen = useSidebarStore((s) => s.drawerOpen)
  const toggleSidebar = useSidebarStore((s) => s.toggle)
  const closeDrawer = useSidebarStore((s) => s.closeDrawer)
  const sidebarShown = narrow ? drawerOpen : !collapsed
  const drawer = narrow && drawerOpen

  useEffect(() => startApp(), [])
  useAppliedTheme()

  useEffect(() => {
    document.documentElement.lang = language
  }, [language])

  // Widening the window docks the sidebar: a drawer left open would come back on the next narrowing.
  useEffect(() => {
    if (!narrow) closeDrawer()
  }, [narrow, closeDrawer])

  // Global shortcuts; a modal (approval, settings, confirm) takes the keyboard while open.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isDialogOpen()) return
      const plainMod = isModKey(event) && !event.shiftKey && !event.altKey
      if (plainMod && event.key.toLowerCase() === 'n') {
        event.preventDefault()
        closeDrawer()
        void newConversation().then((result) => {
          if (result.ok) focusComposer()
          else useNoticesStore.getState().push(t.error(result.error))
        })
      } else if (plainMod && event.key.toLowerCase() === 'b') {
        event.preventDefault()
        toggleSidebar(narrow)
        if (narrow) focusSidebarToggle(drawer ? 'header' : 'sidebar')
      } else if (event.key === 'Escape' && drawer) {
        // The open drawer is what Esc closes first; a run is stopped by the next one.
        event.preventDefault()
        dismissDrawer()
      } else if (event.key === 'Escape' && activeRun(useChatStore.getState().snapshot)) {
        event.preventDefault()
        void cancelActiveRun()
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [t, narrow, drawer, toggleSidebar, closeDrawer])

  const layout = `app${narrow ? ' narrow' : ''}${sidebarShown ? '' : ' sidebar-hidden'}${drawer ? ' drawer-open' : ''}`

  return (
    <div className={layout} data-testid="app" data-sidebar={sidebarShown ? (drawer ? 'drawer' : 'docked') : 'hidden'}>
      {/* Across the whole window, above the sidebar and any dialog: a run holds the keyboard and mouse. */}
      <DesktopBanner />
      {/* A panel opened from the drawer replaces it (the drawer would be left behind the dialog). */}
      <Sidebar
        onOpenSettings={() => {
          closeDrawer()
          setSettingsOpen(true)
        }}
        onOpenDevices={() => {
          closeDrawer()
          setDevicesOpen(true)
        }}
        onOpenMemory={() => {
          closeDrawer()
          setMemoryOpen(true)
        }}
        onOpenSchedules={() => {
          closeDrawer()
          setSchedulesOpen(true)
        }}
        onNavigate={closeDrawer}
      />
      {/* A click beside the open drawer closes it (and does nothing else). */}
      {drawer && <div className="sidebar-backdrop" data-testid="sidebar-backdrop" aria-hidden="true" onClick={dismissDrawer} />}
      <div className="main">
        <ConnectionBanner />
        <ChatView
          onOpenSettings={(section) => {
            setSettingsSection(section ?? null)
            setSettingsOpen(true)
          }}
          headerStart={sidebarShown ? null : <SidebarToggle place="header" />} />
      </div>
      {settingsOpen && (
        <SettingsPanel
          section={settingsSection}
          onClose={() => {
            setSettingsOpen(false)
            setSettingsSection(null)
          }}
        />
      )}
      {devicesOpen && <DevicesPanel onClose={() => setDevicesOpen(false)} />}
      {memoryOpen && <MemoryPanel onClose={() => setMemoryOpen(false)} />}
      {schedulesOpen && <SchedulesPanel onClose={() => setSchedulesOpen(false)} />}
      <FirstRunSetup onOpenSettings={() => setSettingsOpen(true)} />
      <ApprovalModal />
      <Notices />
    </div>
  )
}
