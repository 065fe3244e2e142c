/**
 * Which browser the browser tools drive (docs/tools.md, "Browser"): the one chosen in Settings,
 * else the first installed Chromium, Chrome or Edge in each OS's usual places; a reason otherwise.
 * And `deskclaw doctor`'s line for it.
 */
import { describe, expect, it } from 'vitest'
import { browserCandidates, findBrowser } from '../../src/main/browser'
import { formatDoctorReport } from '../../src/main/cli/doctor'

describe('finding the browser', () => {
  it('takes the chosen one when it can run, and says so when it cannot', () => {
    expect(findBrowser('/opt/my/chrome', { isExecutable: (path) => path === '/opt/my/chrome' })).toEqual({ ok: true, path: '/opt/my/chrome' })
    const missing = findBrowser('/opt/none', { isExecutable: () => false })
    expect(missing.ok).toBe(false)
    expect(!missing.ok && missing.reason).toContain('/opt/none')
  })

  it('finds Chromium before Chrome and Edge on Linux, on PATH first', () => {
    const installed = new Set(['/usr/bin/google-chrome', '/home/u/bin/chromium', '/usr/bin/microsoft-edge'])
    const env = { PATH: '/home/u/bin:/usr/bin' }
    expect(findBrowser('', { platform: 'linux', env, isExecutable: (path) => installed.has(path) })).toEqual({ ok: true, path: '/home/u/bin/chromium' })
    installed.delete('/home/u/bin/chromium')
    expect(findBrowser('', { platform: 'linux', env, isExecutable: (path) => installed.has(path) })).toEqual({ ok: true, path: '/usr/bin/google-chrome' })
  })

  it('knows the default places on macOS and Windows', () => {
    expect(browserCandidates('darwin', {})[0]).toBe('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome')
    const windows = browserCandidates('win32', { PROGRAMFILES: 'C:\\Program Files', LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' })
    expect(windows.some((path) => path.endsWith('msedge.exe'))).toBe(true)
    expect(windows.some((path) => path.includes('Google') && path.endsWith('chrome.exe'))).toBe(true)
  })

  it('says why when none is installed, and doctor prints it', () => {
    const none = findBrowser('', { platform: 'linux', env: { PATH: '' }, isExecutable: () => false })
    expect(none.ok).toBe(false)
    const report = formatDoctorReport([], { json: false, browser: none })
    expect(report).toContain('Browser (the browser tools):')
    expect(report).toContain('✗ No Chromium, Google Chrome or Microsoft Edge was found')
    expect(formatDoctorReport([], { json: false, browser: { ok: true, path: '/usr/bin/chromium' } })).toContain('✓ /usr/bin/chromium')
  })
})
