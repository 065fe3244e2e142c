/**
 * The application menu. A packaged app has no reload and no DevTools (a reload would drop the
 * conversation being watched, DevTools would let anyone at the keyboard script the bridge); under
 * `npm run dev` / `npm start` both stay. The Edit menu is always there: on macOS copy and paste
 * work only through it.
 */
import type { MenuItemConstructorOptions } from 'electron'

export interface MenuOptions {
  isPackaged: boolean
  platform: NodeJS.Platform
}

export function buildMenuTemplate({ isPackaged, platform }: MenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin'
  const developer: MenuItemConstructorOptions[] = isPackaged
    ? []
    : [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }]
  return [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu', submenu: mac ? [{ role: 'close' }] : [{ role: 'quit' }] },
    { role: 'editMenu' },
    {
      role: 'viewMenu',
      submenu: [...developer, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }]
    },
    { role: 'windowMenu' }
  ]
}

/** Every role in a template, submenus included (what the tests look at). */
export function menuRoles(template: readonly MenuItemConstructorOptions[]): string[] {
  return template.flatMap((item) => [
    ...(item.role ? [item.role] : []),
    ...(Array.isArray(item.submenu) ? menuRoles(item.submenu) : [])
  ])
}
