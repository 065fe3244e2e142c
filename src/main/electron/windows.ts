/**
 * The main window: how it is created (sandboxed, no navigation, no new windows) and the one holder
 * for it, kept current across close, macOS re-activation and a second launch.
 */
import { join } from 'node:path'
import { app, BrowserWindow, shell } from 'electron'

/** Where the built renderer lives, and the dev server when running under `electron-vite dev`. */
export const rendererDir = join(__dirname, '../renderer')
export const devServerUrl = process.env.ELECTRON_RENDERER_URL

let mainWindow: BrowserWindow | null = null

/** The main window, or null while there is none (closed, or not yet created). */
export function getMainWindow(): BrowserWindow | null {
  return mainWindow
}

export function createMainWindow(): BrowserWindow {
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

/** Creates the main window and keeps the holder current; call once the app is ready. */
export function setupWindows(): void {
  const open = (): void => {
    const window = createMainWindow()
    window.on('closed', () => {
      if (mainWindow === window) mainWindow = null
    })
    mainWindow = window
  }
  open()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) open()
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('second-instance', () => {
    if (!mainWindow) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  })
}
