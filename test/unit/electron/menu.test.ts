import { describe, expect, it } from 'vitest'
import { buildMenuTemplate, menuRoles } from '../../../src/main/electron/policy/menu'

const developerRoles = ['reload', 'forceReload', 'toggleDevTools']

describe('buildMenuTemplate', () => {
  it.each(['linux', 'win32', 'darwin'] as const)('has no reload and no DevTools in a packaged app on %s', (platform) => {
    const roles = menuRoles(buildMenuTemplate({ isPackaged: true, platform }))
    for (const role of developerRoles) expect(roles).not.toContain(role)
    expect(roles).toEqual(expect.arrayContaining(['editMenu', 'viewMenu', 'windowMenu', 'zoomIn', 'zoomOut', 'resetZoom']))
  })

  it.each(['linux', 'darwin'] as const)('keeps them while developing on %s', (platform) => {
    const roles = menuRoles(buildMenuTemplate({ isPackaged: false, platform }))
    for (const role of developerRoles) expect(roles).toContain(role)
  })

  it('follows each platform: the app menu on macOS, Quit in File elsewhere', () => {
    const mac = buildMenuTemplate({ isPackaged: true, platform: 'darwin' })
    expect(mac[0]!.role).toBe('appMenu')
    expect(menuRoles(mac)).not.toContain('quit')
    const linux = buildMenuTemplate({ isPackaged: true, platform: 'linux' })
    expect(menuRoles(linux)).not.toContain('appMenu')
    expect(menuRoles(linux)).toContain('quit')
  })
})
