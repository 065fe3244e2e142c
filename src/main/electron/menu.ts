/** The application menu (policy/menu.ts): no reload and no DevTools in a packaged app. */
import { app, Menu } from 'electron'
import { buildMenuTemplate } from './policy/menu'

/** Call once the app is ready. */
export function setupMenu(): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(buildMenuTemplate({ isPackaged: app.isPackaged, platform: process.platform })))
}
