/**
 * The Electron shell's entry. Everything else is plain Node and built in app/; the shell only wires
 * it to Electron (docs/architecture.md), one setup function per concern:
 * - setupSecurity (security.ts): refuse every web permission request;
 * - setupIpc (ipc.ts): the bridge over IPC, and bus events out to the windows;
 * - setupApprovalDialogs (dialogs.ts): the approval front door and the native-dialog fallback;
 * - setupWindows (windows.ts): the main window and its app-level events;
 * - setupDesktopStop (desktop.ts): the driver in a utilityProcess, Electron's clipboard, and the
 *   global shortcut that stops desktop control;
 * - setupQuit (lifecycle.ts): clean up and close the app before quitting.
 * A tray setup will be one more call in start().
 */
import { app } from 'electron'
import { DeskclawApp } from '../app'
import { electronDesktopHost, setupDesktopStop } from './desktop'
import { setupApprovalDialogs } from './dialogs'
import { setupIpc } from './ipc'
import { setupQuit } from './lifecycle'
import { electronSqliteBinding } from './native-binding'
import { setupSecurity } from './security'
import { getMainWindow, setupWindows } from './windows'

async function start(): Promise<void> {
  await app.whenReady()
  setupSecurity()

  const desktop = electronDesktopHost()
  const deskclaw = DeskclawApp.create({
    dataDir: app.getPath('userData'),
    nativeBinding: electronSqliteBinding(app.getAppPath(), app.isPackaged),
    desktop
  })
  // The IPC handler and event forwarding stay up until the process exits, so events emitted while
  // the app closes still reach the window.
  setupIpc(deskclaw)
  const detachApprovalDialogs = setupApprovalDialogs(deskclaw, getMainWindow)
  const detachDesktopStop = setupDesktopStop(deskclaw, desktop.shortcut)
  setupWindows()
  setupQuit(deskclaw, [detachApprovalDialogs, detachDesktopStop])
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  start().catch((error: unknown) => {
    console.error('[deskclaw] failed to start:', error)
    app.exit(1)
  })
}
