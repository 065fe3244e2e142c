/**
 * The main window: how it is created (secureWebPreferences, loaded from app:// — or the dev server
 * in development), where it opens (the size, position and maximised state it had last time,
 * checked against today's displays), what closing it does (hide into the tray when one exists on
 * Linux/Windows, see setKeepRunningOnClose), and the one holder for it, kept current across close,
 * macOS re-activation and a second launch. Navigation, new windows and permissions are refused for
 * every webContents in security.ts.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { app, BrowserWindow, screen } from 'electron'
import { closeAction } from './policy/lifecycle'
import { secureWebPreferences } from './policy/web-preferences'
import {
  MIN_WINDOW_SIZE,
  parseWindowState,
  restoreWindowState,
  serializeWindowState,
  windowStateFile,
  type WindowState
} from './policy/window-state'
import { preloadPath, rendererPageUrl } from './renderer-source'

const SAVE_DELAY_MS = 1_000

let mainWindow: BrowserWindow | null = null
let dataDir: string | null = null
let keepRunningOnClose: () => boolean = () => false
let quitting = false

/** The main window, or null while there is none (closed, or not yet created). */
export function getMainWindow(): BrowserWindow | null {
  return mainWindow
}

/**
 * The tray's hook: while `keepRunning()` returns true, closing the main window on Linux/Windows
 * hides it instead, and the app keeps running (bring it back with showMainWindow). Pass null when
 * the tray goes away. Quitting (app.quit, the menu's Quit) always closes it.
 */
export function setKeepRunningOnClose(keepRunning: (() => boolean) | null): void {
  keepRunningOnClose = keepRunning ?? (() => false)
}

/** Shows, restores and focuses the main window, creating it if it was closed (tray, palette, second launch). */
export function showMainWindow(): BrowserWindow {
  if (!mainWindow) return openMainWindow()
  if (mainWindow.isMinimized()) mainWindow.restore()
  mainWindow.show()
  mainWindow.focus()
  return mainWindow
}

/** Creates the main window and keeps the holder current; call once the app is ready and app:// is served. */
export function setupWindows(options: { dataDir: string }): void {
  dataDir = options.dataDir
  app.on('before-quit', () => (quitting = true))
  openMainWindow()
  app.on('activate', () => {
    // macOS: the Dock icon brings the main window back (the palette may be open; it does not count).
    if (!mainWindow) openMainWindow()
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('second-instance', () => showMainWindow())
}

function openMainWindow(): BrowserWindow {
  const window = createMainWindow()
  mainWindow = window
  window.on('close', (event) => {
    saveWindowState(window)
    if (closeAction({ platform: process.platform, quitting, keepRunning: keepRunningOnClose() }) === 'hide') {
      event.preventDefault()
      window.hide()
    }
  })
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null
    // Without a tray the app is invisible once the main window is gone, even if another window
    // (the palette) still exists: quit, as window-all-closed would.
    if (process.platform !== 'darwin') app.quit()
  })
  return window
}

function createMainWindow(): BrowserWindow {
  const placement = restoreWindowState(loadWindowState(), workAreas())
  const window = new BrowserWindow({
    ...placement.bounds,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    show: false,
    title: 'DeskClaw',
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(preloadPath)
  })
  window.once('ready-to-show', () => {
    if (placement.maximized) window.maximize()
    window.show()
  })
  let timer: NodeJS.Timeout | null = null
  const saveSoon = (): void => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => saveWindowState(window), SAVE_DELAY_MS)
  }
  for (const change of ['resize', 'move', 'maximize', 'unmaximize'] as const) window.on(change as 'resize', saveSoon)
  window.on('closed', () => {
    if (timer) clearTimeout(timer)
  })
  void window.loadURL(rendererPageUrl('index.html'))
  return window
}

/** The primary display's work area first (restoreWindowState centres there when the saved place is gone). */
function workAreas() {
  const primary = screen.getPrimaryDisplay()
  return [primary, ...screen.getAllDisplays().filter((display) => display.id !== primary.id)].map((display) => display.workArea)
}

function loadWindowState(): WindowState | null {
  if (!dataDir) return null
  try {
    return parseWindowState(JSON.parse(readFileSync(windowStateFile(dataDir), 'utf8')))
  } catch {
    return null // none yet, or unreadable: the default place
  }
}

function saveWindowState(window: BrowserWindow): void {
  if (!dataDir || window.isDestroyed()) return
  const file = windowStateFile(dataDir)
  try {
    writeFileSync(`${file}.tmp`, serializeWindowState({ bounds: window.getNormalBounds(), maximized: window.isMaximized() }))
    renameSync(`${file}.tmp`, file)
  } catch (error) {
    console.warn(`[deskclaw] could not remember the window's place: ${(error as Error).message}`)
  }
}
