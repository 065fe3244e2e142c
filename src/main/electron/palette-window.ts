/**
 * The quick-command palette window (issue 13): small, frameless, always on top, out of the task
 * bar, loading palette.html from the same place and with the same webPreferences as the main
 * window (renderer-source.ts, policy/web-preferences.ts; security.ts guards its webContents like
 * every other). A global shortcut (settings.paletteShortcut) shows and hides it; it hides when it
 * loses the focus, when its page asks (Esc: the #hide fragment) and when it is closed (only
 * quitting closes it). "Open in DeskClaw" (a show_conversation event) hides it and brings the main
 * window forward. Hidden, it keeps its page and the task shown in it.
 */
import { app, BrowserWindow, dialog, globalShortcut, nativeTheme, Notification, screen } from 'electron'
import type { Language } from '../../shared/bridge'
import type { DeskclawApp } from '../app'
import { secureWebPreferences } from './policy/web-preferences'
import { preloadPath, rendererPageUrl } from './renderer-source'
import { showMainWindow } from './windows'

export const PALETTE_SIZE = { width: 640, height: 420 } as const
export const DEFAULT_PALETTE_SHORTCUT = 'CommandOrControl+Shift+Space'
/** The page asks to be hidden by putting this fragment in its address (src/renderer/src/palette/store.ts). */
const HIDE_FRAGMENT = '#hide'

/** The palette's background before its page paints (features/theme/theme.css --bg-elevated), so it never flashes white in dark mode. */
const BACKGROUND = { light: '#ffffff', dark: '#1f2026' } as const

export interface PaletteHandle {
  show(): void
  hide(): void
  toggle(): void
  isVisible(): boolean
  /** The accelerator registered now; null when none is (taken by another app, or not valid). */
  shortcut(): string | null
  /** Unregisters the shortcut, stops listening and destroys the window (before quitting). */
  dispose(): void
}

const TAKEN_TEXT: Record<Language, (shortcut: string) => { title: string; body: string }> = {
  en: (shortcut) => ({
    title: 'The palette shortcut is taken',
    body: `Another app uses ${shortcut}, so it does not open the DeskClaw palette. Choose another shortcut in Settings, or use the tray menu's "New task".`
  }),
  'zh-CN': (shortcut) => ({
    title: '快捷面板的快捷键已被占用',
    body: `另一个应用占用了 ${shortcut}，它无法打开 DeskClaw 快捷面板。请在设置中换一个快捷键，或使用托盘菜单中的“新任务”。`
  })
}

/** Where the palette opens: centred on the display under the pointer, in its upper part. */
function placement(): { x: number; y: number } {
  const area = screen.getDisplayNearestPoint(screen.getCursorScreenPoint()).workArea
  return {
    x: Math.round(area.x + (area.width - PALETTE_SIZE.width) / 2),
    y: Math.round(area.y + Math.max(0, (area.height - PALETTE_SIZE.height) * 0.25))
  }
}

/** Creates the palette (lazily, on first show) and registers its shortcut; call once the app is ready and app:// is served. */
export function setupPalette(deskclaw: DeskclawApp): PaletteHandle {
  let window: BrowserWindow | null = null
  let quitting = false
  let registered: string | null = null
  /** Accelerators already reported as taken (one notice per accelerator per run of the app). */
  const reported = new Set<string>()

  const onBeforeQuit = (): void => {
    quitting = true
  }
  app.on('before-quit', onBeforeQuit)

  const background = (): string => (nativeTheme.shouldUseDarkColors ? BACKGROUND.dark : BACKGROUND.light)
  const onThemeUpdated = (): void => {
    if (window && !window.isDestroyed()) window.setBackgroundColor(background())
  }
  nativeTheme.on('updated', onThemeUpdated)

  function create(): BrowserWindow {
    const created = new BrowserWindow({
      ...PALETTE_SIZE,
      show: false,
      frame: false,
      resizable: false,
      minimizable: false,
      maximizable: false,
      fullscreenable: false,
      alwaysOnTop: true,
      skipTaskbar: true,
      title: 'DeskClaw',
      backgroundColor: background(),
      webPreferences: secureWebPreferences(preloadPath)
    })
    created.setAlwaysOnTop(true, 'floating')
    if (process.platform === 'darwin') created.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true })
    // Esc in the page: it replaces its address's fragment with #hide (palette/store.ts HIDE_FRAGMENT).
    created.webContents.on('did-navigate-in-page', (_event, url, isMainFrame) => {
      if (isMainFrame && url.endsWith(HIDE_FRAGMENT)) hide()
    })
    // Closing it (Alt+F4, the window manager) hides it; only quitting closes it.
    created.on('close', (event) => {
      if (quitting) return
      event.preventDefault()
      created.hide()
    })
    created.on('blur', () => {
      if (!created.webContents.isDevToolsOpened()) created.hide()
    })
    created.on('closed', () => {
      if (window === created) window = null
    })
    void created.loadURL(rendererPageUrl('palette.html'))
    return created
  }

  function show(): void {
    if (!window || window.isDestroyed()) {
      const created = (window = create())
      // The first time, once its page has painted; after that at once.
      created.once('ready-to-show', () => reveal(created))
      return
    }
    reveal(window)
  }

  function reveal(target: BrowserWindow): void {
    if (target.isDestroyed()) return
    const { x, y } = placement()
    target.setBounds({ x, y, ...PALETTE_SIZE })
    target.show()
    target.focus()
    // Page focus too, so the task input has the caret (the page focuses it on the window's focus event).
    target.webContents.focus()
  }

  function hide(): void {
    if (window && !window.isDestroyed() && window.isVisible()) window.hide()
  }

  const isVisible = (): boolean => window !== null && !window.isDestroyed() && window.isVisible()

  function toggle(): void {
    if (isVisible() && window!.isFocused()) hide()
    else show()
  }

  function reportTaken(shortcut: string, reason: string): void {
    console.warn(`[deskclaw] the palette shortcut ${shortcut} could not be registered (${reason}); open the palette from the tray menu or choose another shortcut in Settings`)
    if (reported.has(shortcut)) return
    reported.add(shortcut)
    const { title, body } = TAKEN_TEXT[deskclaw.settings().language === 'zh-CN' ? 'zh-CN' : 'en'](shortcut)
    if (Notification.isSupported()) {
      new Notification({ title, body }).show()
    } else {
      void dialog.showMessageBox({ type: 'warning', title: 'DeskClaw', message: title, detail: body, buttons: ['OK'], noLink: true })
    }
  }

  /** Registers settings.paletteShortcut, replacing the previous one; a failure is told once, and nothing else is published. */
  function syncShortcut(): void {
    const wanted = deskclaw.settings().paletteShortcut || DEFAULT_PALETTE_SHORTCUT
    if (registered === wanted) return
    if (registered) globalShortcut.unregister(registered)
    registered = null
    try {
      if (globalShortcut.register(wanted, toggle)) registered = wanted
      else reportTaken(wanted, 'taken by another app')
    } catch (error) {
      reportTaken(wanted, `not a valid accelerator: ${(error as Error).message}`)
    }
  }

  const unsubscribe = deskclaw.events.subscribe((event) => {
    if (event.kind === 'settings_changed') syncShortcut()
    else if (event.kind === 'show_conversation') {
      // "Open in DeskClaw": the main window takes over (its page selects the conversation).
      hide()
      showMainWindow()
    }
  })
  syncShortcut()

  return {
    show,
    hide,
    toggle,
    isVisible,
    shortcut: () => registered,
    dispose() {
      unsubscribe()
      if (registered) globalShortcut.unregister(registered)
      registered = null
      nativeTheme.removeListener('updated', onThemeUpdated)
      app.removeListener('before-quit', onBeforeQuit)
      quitting = true
      if (window && !window.isDestroyed()) window.destroy()
      window = null
    }
  }
}
