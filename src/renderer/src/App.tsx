import { useEffect, useState } from 'react'
import { ApprovalModal } from './features/approvals'
import { ChatView, focusComposer } from './features/chat'
import { isDialogOpen, isModKey, Notices } from './features/common'
import { ConnectionBanner } from './features/connection'
import { Sidebar } from './features/conversations'
import { DesktopBanner } from './features/desktop'
import { DevicesPanel } from './features/devices'
import { FirstRunSetup } from './features/first-run'
import { SettingsPanel } from './features/settings'
import { useLanguage, useT } from './i18n'
import { activeRun, cancelActiveRun, newConversation, startApp, useChatStore, useNoticesStore } from './stores'

export function App() {
  const t = useT()
  const language = useLanguage()
  const [settingsOpen, setSettingsOpen] = useState(false)
  const [devicesOpen, setDevicesOpen] = useState(false)

  useEffect(() => startApp(), [])

  useEffect(() => {
    document.documentElement.lang = language
  }, [language])

  // Global shortcuts; a modal (approval, settings, confirm) takes the keyboard while open.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isDialogOpen()) return
      if (isModKey(event) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 'n') {
        event.preventDefault()
        void newConversation().then((result) => {
          if (result.ok) focusComposer()
          else useNoticesStore.getState().push(t.error(result.error))
        })
      } else if (event.key === 'Escape' && activeRun(useChatStore.getState().snapshot)) {
        event.preventDefault()
        void cancelActiveRun()
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [t])

  return (
    <div className="app">
      {/* Across the whole window, above the sidebar and any dialog: a run holds the keyboard and mouse. */}
      <DesktopBanner />
      <Sidebar onOpenSettings={() => setSettingsOpen(true)} onOpenDevices={() => setDevicesOpen(true)} />
      <div className="main">
        <ConnectionBanner />
        <ChatView onOpenSettings={() => setSettingsOpen(true)} />
      </div>
      {settingsOpen && <SettingsPanel onClose={() => setSettingsOpen(false)} />}
      {devicesOpen && <DevicesPanel onClose={() => setDevicesOpen(false)} />}
      <FirstRunSetup onOpenSettings={() => setSettingsOpen(true)} />
      <ApprovalModal />
      <Notices />
    </div>
  )
}
