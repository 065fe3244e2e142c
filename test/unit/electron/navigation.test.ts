import { describe, expect, it } from 'vitest'
import { GRANTED_PERMISSION, navigationAllowed, permissionAllowed } from '../../../src/main/electron/policy/navigation'

const production = { appOrigin: 'app://deskclaw' }
const development = { appOrigin: 'app://deskclaw', devServerUrl: 'http://localhost:5173/' }

describe('navigationAllowed', () => {
  it.each([
    ['app://deskclaw/index.html', production, true],
    ['app://deskclaw/palette.html', production, true],
    ['http://localhost:5173/', development, true],
    ['http://localhost:5173/', production, false],
    ['https://example.com/', development, false],
    ['file:///etc/passwd', development, false],
    ['app://evil/index.html', production, false],
    ['app://deskclaw@evil/index.html', production, false],
    ['javascript:alert(1)', production, false],
    ['about:blank', production, false],
    ['data:text/html,<script>1</script>', production, false],
    ['', production, false]
  ])('%s → %s', (url, trusted, expected) => {
    expect(navigationAllowed(url, trusted)).toBe(expected)
  })
})

describe('permissionAllowed', () => {
  const top = (requestingUrl: string) => ({ requestingUrl, isMainFrame: true })

  it('grants only clipboard-sanitized-write', () => {
    expect(GRANTED_PERMISSION).toBe('clipboard-sanitized-write')
    expect(permissionAllowed('clipboard-sanitized-write', top('app://deskclaw/index.html'), production)).toBe(true)
    expect(permissionAllowed('clipboard-sanitized-write', top('app://deskclaw'), production)).toBe(true)
    expect(permissionAllowed('clipboard-sanitized-write', top('http://localhost:5173/'), development)).toBe(true)
  })

  it.each([
    'clipboard-read',
    'media',
    'notifications',
    'geolocation',
    'openExternal',
    'fullscreen',
    'pointerLock',
    'display-capture',
    'hid',
    'serial',
    'usb',
    'unknown'
  ])('denies %s even to the app', (permission) => {
    expect(permissionAllowed(permission, top('app://deskclaw/index.html'), production)).toBe(false)
  })

  it('denies the clipboard to frames, other origins and the dev server in production', () => {
    const write = 'clipboard-sanitized-write'
    expect(permissionAllowed(write, { requestingUrl: 'app://deskclaw/index.html', isMainFrame: false }, production)).toBe(false)
    expect(permissionAllowed(write, top('https://example.com/'), production)).toBe(false)
    expect(permissionAllowed(write, top('http://localhost:5173/'), production)).toBe(false)
    expect(permissionAllowed(write, top('file:///tmp/x.html'), production)).toBe(false)
    expect(permissionAllowed(write, { requestingUrl: undefined, isMainFrame: true }, production)).toBe(false)
  })
})
