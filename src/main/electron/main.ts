/**
 * The Electron shell's entry. Everything else is plain Node and built in app/; the shell only wires
 * it to Electron (docs/architecture.md), one setup function per concern. The rules themselves are
 * pure modules in policy/, each pinned by a test in test/unit/electron/.
 *
 * Before 'ready' (prepare):
 * - one data folder for the app and the CLI: defaultDataDir() (DESKCLAW_HOME respected) is
 *   userData; Chromium's own files go in its chromium/ subfolder;
 * - registerAppScheme (protocol.ts): app:// is a privileged (standard, secure) scheme.
 * Once ready (start):
 * - electronSecretStore (secrets.ts): pasted API keys, encrypted with safeStorage into secrets.json;
 * - setupAppProtocol (protocol.ts): app://deskclaw serves out/renderer with the Electron CSP;
 * - setupMenu (menu.ts): the application menu (no reload or DevTools when packaged);
 * - setupSecurity (security.ts): permissions, navigation, new windows and links for every
 *   webContents, and the dev CSP under `npm run dev`;
 * - setupIpc (ipc.ts): the bridge over IPC, and bus events out to the windows;
 * - setupApprovalDialogs (dialogs.ts): the approval front door and the native-dialog fallback;
 * - setupDesktopStop (desktop.ts): the driver in a utilityProcess, Electron's clipboard, and the
 *   global shortcut that stops desktop control;
 * - setupWindows (windows.ts): the main window (its remembered place, close-to-tray) and app-level events;
 * - setupPalette (palette-window.ts): the quick-command palette and its global shortcut;
 * - setupTray (tray.ts): the tray icon and menu (open, new task, pause all, quit);
 * - setupQuit (lifecycle.ts): clean up and close the app before quitting.
 * - electronNotifier (notifications.ts): notices (the notify tool's, scheduled runs') as system notifications.
 * A failed start shows the reason in an error box and exits with code 1.
 */
import { join } from 'node:path'
import { app, dialog } from 'electron'
import { DeskclawApp, defaultDataDir } from '../app'
import { runCliIfAsked } from './cli-mode'
import { electronDesktopHost, setupDesktopStop } from './desktop'
import { nativeSettingConfirmer, setupApprovalDialogs } from './dialogs'
import { setupIpc } from './ipc'
import { setupQuit } from './lifecycle'
import { setupMenu } from './menu'
import { electronSqliteBinding } from './native-binding'
import { electronNotifier } from './notifications'
import { startupFailureMessage } from './policy/lifecycle'
import { registerAppScheme, setupAppProtocol } from './protocol'
import { setupPalette } from './palette-window'
import { electronSecretStore } from './secrets'
import { setupSecurity } from './security'
import { setupTray } from './tray'
import { getMainWindow, setupWindows } from './windows'

const dataDir = defaultDataDir()

/** What must happen before 'ready' (and before the single-instance lock, which lives in userData). */
function prepare(): void {
  app.setPath('userData', dataDir)
  app.setPath('sessionData', join(dataDir, 'chromium'))
  registerAppScheme()
}

async function start(): Promise<void> {
  await app.whenReady()
  setupAppProtocol()
  setupMenu()

  const desktop = electronDesktopHost()
  const deskclaw = DeskclawApp.create({
    dataDir,
    nativeBinding: electronSqliteBinding(app.getAppPath(), app.isPackaged),
    desktop,
    // API keys pasted in Settings, encrypted with the system keyring (safeStorage; usable once ready).
    secrets: electronSecretStore(dataDir),
    // Autonomy "full" and the "native" runtime are confirmed here, in a native dialog, not by the page.
    confirmSetting: nativeSettingConfirmer(getMainWindow),
    // Notices as system notifications; a click shows the notice's conversation (docs/tools.md, "Notifications").
    notifier: electronNotifier((notice) => {
      if (notice.conversationId) deskclaw.events.publish({ kind: 'show_conversation', conversationId: notice.conversationId })
    }),
    // The tray app runs scheduled tasks at their times (docs/tools.md, "Schedules").
    runSchedules: true
  })
  setupSecurity({ language: () => deskclaw.settings().language })
  // The IPC handler and event forwarding stay up until the process exits, so events emitted while
  // the app closes still reach the window.
  setupIpc(deskclaw)
  const detachApprovalDialogs = setupApprovalDialogs(deskclaw, getMainWindow)
  const detachDesktopStop = setupDesktopStop(deskclaw, desktop.shortcut)
  setupWindows({ dataDir })
  const palette = setupPalette(deskclaw)
  const detachTray = setupTray(deskclaw, palette)
  // Plug and unplug reach the windows for the app's lifetime (docs/devices.md).
  const stopWatchingDevices = deskclaw.watchDevices()
  setupQuit(deskclaw, [detachApprovalDialogs, detachDesktopStop, detachTray, () => palette.dispose(), stopWatchingDevices])
}

function failedToStart(error: unknown): void {
  console.error('[deskclaw] failed to start:', error)
  dialog.showErrorBox('DeskClaw could not start', startupFailureMessage(error))
  app.exit(1)
}

try {
  // `DeskClaw --cli <command> …`: the packaged command line, no window, no single-instance lock (cli-mode.ts).
  if (runCliIfAsked(process.argv) === null) {
    prepare()
    if (!app.requestSingleInstanceLock()) app.quit()
    else start().catch(failedToStart)
  }
} catch (error) {
  failedToStart(error)
}
