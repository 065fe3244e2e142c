/**
 * Approvals in the Electron shell: the app window is a front door for approvals for as long as the
 * app runs, and a question that arrives while the main window is hidden or minimised is asked with
 * the native dialog (approval-dialog.ts) so it never waits unseen until the timeout denies it.
 */
import type { BrowserWindow } from 'electron'
import type { DeskclawApp } from '../app'
import { askWithNativeDialog } from './approval-dialog'

/** Attaches the 'electron' front door and the native-dialog fallback; returns the detach. */
export function setupApprovalDialogs(deskclaw: DeskclawApp, getMainWindow: () => BrowserWindow | null): () => void {
  const detachFrontDoor = deskclaw.approvals.attachFrontDoor('electron')
  const unsubscribe = deskclaw.events.subscribe((event) => {
    if (event.kind === 'agent' && event.event.type === 'approval_requested') {
      const mainWindow = getMainWindow()
      const visible = mainWindow !== null && mainWindow.isVisible() && !mainWindow.isMinimized()
      if (!visible) void askWithNativeDialog(deskclaw.approvals, event.event, mainWindow, deskclaw.registry.get(event.event.tool)?.messages)
    }
  })
  return () => {
    unsubscribe()
    detachFrontDoor()
  }
}
