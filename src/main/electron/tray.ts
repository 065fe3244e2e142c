/**
 * The tray icon (issue 13): Open DeskClaw, New task (the palette), Pause all (cancels every running
 * run), Quit — in the app's language, with the palette shortcut shown beside New task and the
 * number of running tasks beside Pause all. While the tray exists, closing the main window on
 * Linux/Windows hides it and the app keeps running here (windows.ts setKeepRunningOnClose).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { app, Menu, nativeImage, Tray, type MenuItemConstructorOptions, type NativeImage } from 'electron'
import type { Language } from '../../shared/bridge'
import type { DeskclawApp } from '../app'
import type { PaletteHandle } from './palette-window'
import { setKeepRunningOnClose, showMainWindow } from './windows'

const LABELS: Record<Language, { open: string; newTask: string; pauseAll: string; pauseAllCount: (n: number) => string; quit: string; tooltip: (n: number) => string }> = {
  en: {
    open: 'Open DeskClaw',
    newTask: 'New task…',
    pauseAll: 'Pause all',
    pauseAllCount: (n) => `Pause all (${n} running)`,
    quit: 'Quit DeskClaw',
    tooltip: (n) => (n === 0 ? 'DeskClaw' : n === 1 ? 'DeskClaw — 1 task running' : `DeskClaw — ${n} tasks running`)
  },
  'zh-CN': {
    open: '打开 DeskClaw',
    newTask: '新任务…',
    pauseAll: '全部暂停',
    pauseAllCount: (n) => `全部暂停（${n} 个运行中）`,
    quit: '退出 DeskClaw',
    tooltip: (n) => (n === 0 ? 'DeskClaw' : `DeskClaw — ${n} 个任务运行中`)
  }
}

export interface TrayMenuActions {
  open(): void
  newTask(): void
  pauseAll(): void
  quit(): void
}

/** The tray menu for a language, the number of running runs and the palette shortcut (null: none registered). Pure. */
export function trayMenuTemplate(
  language: Language,
  running: number,
  paletteShortcut: string | null,
  actions: TrayMenuActions
): MenuItemConstructorOptions[] {
  const labels = LABELS[language] ?? LABELS.en
  return [
    { label: labels.open, click: actions.open },
    {
      label: labels.newTask,
      click: actions.newTask,
      // Shown only: the global shortcut itself is registered by the palette.
      ...(paletteShortcut ? { accelerator: paletteShortcut, registerAccelerator: false } : {})
    },
    { type: 'separator' },
    { label: running > 0 ? labels.pauseAllCount(running) : labels.pauseAll, enabled: running > 0, click: actions.pauseAll },
    { type: 'separator' },
    { label: labels.quit, click: actions.quit }
  ]
}

/**
 * The icon for this platform from resources/tray (resources/tray/make-tray-icons.sh): a template
 * image on macOS (the menu bar tints it), the colour one elsewhere. Found next to the app (dev,
 * preview, and packaged inside app.asar) or in the packaged resources folder.
 */
function trayIcon(): NativeImage | null {
  const file = process.platform === 'darwin' ? 'trayTemplate.png' : process.platform === 'win32' ? 'tray.png' : 'tray-linux.png'
  const folders = [join(app.getAppPath(), 'resources', 'tray'), join(process.resourcesPath ?? '', 'tray'), join(process.resourcesPath ?? '', 'resources', 'tray')]
  for (const folder of folders) {
    const path = join(folder, file)
    if (!existsSync(path)) continue
    const image = nativeImage.createFromPath(path)
    if (image.isEmpty()) continue
    if (process.platform === 'darwin') image.setTemplateImage(true)
    return image
  }
  return null
}

/** Puts DeskClaw in the tray; returns the teardown. Without an icon file there is no tray (and closing the main window quits). */
export function setupTray(deskclaw: DeskclawApp, palette: Pick<PaletteHandle, 'show' | 'shortcut'>): () => void {
  const icon = trayIcon()
  if (!icon) {
    console.warn('[deskclaw] no tray icon found (resources/tray): running without a tray')
    return () => {}
  }
  let tray: Tray | null
  try {
    tray = new Tray(icon)
  } catch (error) {
    console.warn(`[deskclaw] the tray is not available here: ${(error as Error).message}`)
    return () => {}
  }

  const running = new Set<string>()
  const actions: TrayMenuActions = {
    open: () => void showMainWindow(),
    newTask: () => palette.show(),
    pauseAll: () => {
      deskclaw.agent.cancelAll().catch((error: unknown) => console.warn(`[deskclaw] pause all: ${(error as Error).message}`))
    },
    quit: () => app.quit()
  }

  let shown = ''
  const refresh = (): void => {
    if (!tray || tray.isDestroyed()) return
    const language = deskclaw.settings().language
    const shortcut = palette.shortcut()
    // Rebuilt only when something it shows changed (some Linux panels flicker on every setContextMenu).
    const key = `${language}|${running.size}|${shortcut ?? ''}`
    if (key === shown) return
    shown = key
    tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(language, running.size, shortcut, actions)))
    tray.setToolTip((LABELS[language] ?? LABELS.en).tooltip(running.size))
  }

  // A click opens the main window where the platform reports clicks (Windows; macOS shows the menu).
  if (process.platform !== 'darwin') tray.on('click', () => showMainWindow())

  const unsubscribe = deskclaw.events.subscribe((event) => {
    if (event.kind === 'agent') {
      const { type, runId } = event.event
      if (type === 'run_started') running.add(runId)
      else if (type === 'run_completed' || type === 'run_failed') running.delete(runId)
      else return
      refresh()
    } else if (event.kind === 'settings_changed') {
      // The palette re-registers its shortcut on the same event; read it once that has happened.
      setImmediate(refresh)
    }
  })
  refresh()
  setKeepRunningOnClose(() => tray !== null && !tray.isDestroyed())

  return () => {
    unsubscribe()
    setKeepRunningOnClose(null)
    if (tray && !tray.isDestroyed()) tray.destroy()
    tray = null
  }
}
