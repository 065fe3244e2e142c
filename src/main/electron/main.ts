/**
 * The Electron shell: window, IPC transport, native dialogs. Everything else is plain Node and
 * built in app/; this file only wires it to Electron (DESIGN §1).
 */
import { join } from 'node:path'
import { app, BrowserWindow, ipcMain, session, shell, type IpcMainInvokeEvent } from 'electron'
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, type BridgeResult } from '../../shared'
import { DeskclawApp } from '../app'
import { createBridgeHandlers, dispatchCall, isTrustedSender } from '../bridge'
import { askWithNativeDialog } from './approval-dialog'
import { electronSqliteBinding } from './native-binding'

const rendererDir = join(__dirname, '../renderer')
const devServerUrl = process.env.ELECTRON_RENDERER_URL
let mainWindow: BrowserWindow | null = null

function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'DeskClaw',
    autoHideMenuBar: true,
    webPreferences: {
      preload: join(__dirname, '../preload/index.js'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false
    }
  })
  window.once('ready-to-show', () => window.show())
  // No new windows and no navigation away from the app; http(s) links open in the browser.
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event) => event.preventDefault())
  if (devServerUrl) void window.loadURL(devServerUrl)
  else void window.loadFile(join(rendererDir, 'index.html'))
  return window
}

function senderAllowed(event: IpcMainInvokeEvent): boolean {
  return isTrustedSender(
    {
      senderType: event.sender.getType(),
      frameUrl: event.senderFrame?.url ?? null,
      isTopFrame: event.senderFrame?.parent === null
    },
    { rendererDir, devServerUrl }
  )
}

async function start(): Promise<void> {
  await app.whenReady()
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))

  const deskclaw = DeskclawApp.create({
    dataDir: app.getPath('userData'),
    nativeBinding: electronSqliteBinding(app.getAppPath(), app.isPackaged)
  })
  const table = createBridgeHandlers(deskclaw, 'ipc')
  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, name: unknown, input: unknown): Promise<BridgeResult<unknown>> => {
    if (!senderAllowed(event)) return { ok: false, error: { code: 'FORBIDDEN', message: 'Sender not allowed.' } }
    return dispatchCall(table, String(name), input)
  })

  // The app window is a front door for approvals for as long as the app runs.
  const detachFrontDoor = deskclaw.approvals.attachFrontDoor('electron')
  deskclaw.events.subscribe((event) => {
    for (const window of BrowserWindow.getAllWindows()) window.webContents.send(IPC_EVENT_CHANNEL, event)
    if (event.kind === 'agent' && event.event.type === 'approval_requested') {
      const visible = mainWindow !== null && mainWindow.isVisible() && !mainWindow.isMinimized()
      if (!visible) void askWithNativeDialog(deskclaw.approvals, event.event, mainWindow)
    }
  })

  mainWindow = createMainWindow()
  mainWindow.on('closed', () => {
    mainWindow = null
  })
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow()
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  let closing = false
  app.on('before-quit', (event) => {
    if (closing) return
    closing = true
    event.preventDefault()
    detachFrontDoor()
    void deskclaw.close().finally(() => app.quit())
  })
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  })
  start().catch((error: unknown) => {
    console.error('[deskclaw] failed to start:', error)
    app.exit(1)
  })
}
