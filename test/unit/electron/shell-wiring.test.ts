/**
 * The Electron shell's wiring, run against a fake 'electron' module (the binary cannot start here):
 * the pure policies are tested on their own; these tests pin that security.ts, windows.ts,
 * protocol.ts and main.ts actually use them.
 */
import { EventEmitter } from 'node:events'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const fake = await vi.hoisted(async () => {
  const { EventEmitter } = await import('node:events')
  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    setPath: vi.fn(),
    getAppPath: () => '/app',
    requestSingleInstanceLock: vi.fn(() => true),
    whenReady: vi.fn(() => Promise.resolve()),
    quit: vi.fn(),
    exit: vi.fn()
  })
  const session = {
    defaultSession: {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      webRequest: { onHeadersReceived: vi.fn() }
    }
  }
  const dialog = { showMessageBox: vi.fn(), showErrorBox: vi.fn() }
  const shell = { openExternal: vi.fn(() => Promise.resolve()) }
  const protocol = { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() }
  const windows: any[] = []
  class BrowserWindow extends (EventEmitter as any) {
    static fromWebContents = vi.fn(() => null)
    static getAllWindows = () => windows
    options: any
    loaded: string | null = null
    visible = false
    maximized = false
    destroyed = false
    webContents = new (EventEmitter as any)()
    constructor(options: any) {
      super()
      this.options = options
      windows.push(this)
    }
    loadURL(url: string) {
      this.loaded = url
      return Promise.resolve()
    }
    show() {
      this.visible = true
    }
    hide() {
      this.visible = false
    }
    focus() {}
    restore() {}
    maximize() {
      this.maximized = true
    }
    isMinimized() {
      return false
    }
    isMaximized() {
      return this.maximized
    }
    isDestroyed() {
      return this.destroyed
    }
    getNormalBounds() {
      return { x: 10, y: 50, width: 1000, height: 700 }
    }
    /** What Electron does on close: 'close' (preventable), then 'closed'. */
    close() {
      let prevented = false
      this.emit('close', { preventDefault: () => (prevented = true) })
      if (prevented) return
      this.destroyed = true
      this.emit('closed')
    }
  }
  const screen = {
    getPrimaryDisplay: () => ({ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }),
    getAllDisplays: () => [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }]
  }
  const Menu = { setApplicationMenu: vi.fn(), buildFromTemplate: vi.fn((template: unknown) => template) }
  return { app, session, dialog, shell, protocol, BrowserWindow, windows, screen, Menu }
})

vi.mock('electron', () => ({
  app: fake.app,
  session: fake.session,
  dialog: fake.dialog,
  shell: fake.shell,
  protocol: fake.protocol,
  BrowserWindow: fake.BrowserWindow,
  screen: fake.screen,
  Menu: fake.Menu,
  ipcMain: { handle: vi.fn(), removeHandler: vi.fn() },
  clipboard: {},
  globalShortcut: {},
  utilityProcess: {}
}))

beforeEach(() => {
  vi.clearAllMocks()
  // The shell logs what it blocks; the tests look at what it did instead.
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  vi.spyOn(console, 'error').mockImplementation(() => {})
  fake.app.removeAllListeners()
  fake.windows.length = 0
})

/** A webContents as security.ts sees it, recording its listeners and window-open handler. */
function fakeContents() {
  const contents = Object.assign(new EventEmitter(), {
    openHandler: null as null | ((details: { url: string }) => { action: string }),
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
      contents.openHandler = handler
    },
    isDestroyed: () => false
  })
  return contents
}

function navigate(contents: EventEmitter, event: 'will-navigate' | 'will-redirect', url: string): boolean {
  let prevented = false
  contents.emit(event, { url, preventDefault: () => (prevented = true) })
  return prevented
}

describe('setupSecurity', () => {
  async function setup() {
    const { setupSecurity } = await import('../../../src/main/electron/security')
    setupSecurity({ language: () => 'en' })
    const contents = fakeContents()
    fake.app.emit('web-contents-created', {}, contents)
    return contents
  }

  it('grants only the clipboard write, only to the app', async () => {
    await setup()
    const request = fake.session.defaultSession.setPermissionRequestHandler.mock.calls[0]![0]
    const answer = (permission: string, requestingUrl: string, isMainFrame = true) => {
      const callback = vi.fn()
      request({}, permission, callback, { requestingUrl, isMainFrame })
      return callback.mock.calls[0]![0]
    }
    expect(answer('clipboard-sanitized-write', 'app://deskclaw/index.html')).toBe(true)
    expect(answer('clipboard-sanitized-write', 'app://deskclaw/index.html', false)).toBe(false)
    expect(answer('media', 'app://deskclaw/index.html')).toBe(false)
    expect(answer('clipboard-sanitized-write', 'https://example.com/')).toBe(false)
    const check = fake.session.defaultSession.setPermissionCheckHandler.mock.calls[0]![0]
    expect(check(null, 'clipboard-sanitized-write', 'app://deskclaw', { isMainFrame: true })).toBe(true)
    expect(check(null, 'notifications', 'app://deskclaw', { isMainFrame: true })).toBe(false)
  })

  it('keeps every webContents on the app: no navigation away, no redirect away, no webview', async () => {
    const contents = await setup()
    expect(navigate(contents, 'will-navigate', 'app://deskclaw/index.html')).toBe(false)
    expect(navigate(contents, 'will-navigate', 'https://example.com/')).toBe(true)
    expect(navigate(contents, 'will-navigate', 'file:///etc/passwd')).toBe(true)
    expect(navigate(contents, 'will-redirect', 'https://example.com/')).toBe(true)
    let prevented = false
    contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) })
    expect(prevented).toBe(true)
  })

  it('denies every new window and opens a link only after Open in the native dialog', async () => {
    const contents = await setup()
    fake.dialog.showMessageBox.mockResolvedValueOnce({ response: 0 })
    expect(contents.openHandler!({ url: 'https://example.com/a?b' })).toEqual({ action: 'deny' })
    await vi.waitFor(() => expect(fake.shell.openExternal).toHaveBeenCalledWith('https://example.com/a?b'))
    expect(fake.dialog.showMessageBox.mock.calls[0]![0].detail).toContain('https://example.com/a?b')

    fake.dialog.showMessageBox.mockResolvedValueOnce({ response: 1 })
    expect(contents.openHandler!({ url: 'https://example.org/' })).toEqual({ action: 'deny' })
    await vi.waitFor(() => expect(fake.dialog.showMessageBox).toHaveBeenCalledTimes(2))
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(fake.shell.openExternal).toHaveBeenCalledTimes(1)
  })

  it('never asks about, nor opens, anything but http(s) and mailto', async () => {
    const contents = await setup()
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'app://deskclaw/index.html', 'smb://host/share']) {
      expect(contents.openHandler!({ url })).toEqual({ action: 'deny' })
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(fake.dialog.showMessageBox).not.toHaveBeenCalled()
    expect(fake.shell.openExternal).not.toHaveBeenCalled()
  })

  it('asks one question at a time', async () => {
    const contents = await setup()
    let answer: (value: { response: number }) => void = () => {}
    fake.dialog.showMessageBox.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)))
    for (let i = 0; i < 5; i++) contents.openHandler!({ url: `https://example.com/${i}` })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(fake.dialog.showMessageBox).toHaveBeenCalledTimes(1)
    answer({ response: 1 })
  })
})

describe('setupAppProtocol', () => {
  it('serves app:// with the Electron CSP', async () => {
    const { registerAppScheme, setupAppProtocol } = await import('../../../src/main/electron/protocol')
    registerAppScheme()
    expect(fake.protocol.registerSchemesAsPrivileged.mock.calls[0]![0][0].scheme).toBe('app')
    setupAppProtocol()
    const [scheme, handler] = fake.protocol.handle.mock.calls[0]!
    expect(scheme).toBe('app')
    const response: Response = await handler(new Request('app://deskclaw/../../../etc/passwd'))
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'self'; script-src 'self';/)
    expect(response.status).toBe(404)
  })
})

describe('setupWindows', () => {
  let dataDir: string
  let windows: typeof import('../../../src/main/electron/windows')
  const platform = process.platform

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'deskclaw-windows-'))
    vi.resetModules()
    windows = await import('../../../src/main/electron/windows')
  })
  afterEach(() => Object.defineProperty(process, 'platform', { value: platform }))

  it('opens the main window from app:// with the secure webPreferences, at the remembered place', async () => {
    writeFileSync(join(dataDir, 'window-state.json'), JSON.stringify({ bounds: { x: 40, y: 60, width: 900, height: 600 }, maximized: true }))
    windows.setupWindows({ dataDir })
    const window = fake.windows[0]
    const { secureWebPreferences } = await import('../../../src/main/electron/policy/web-preferences')
    expect(window.options.webPreferences).toEqual(secureWebPreferences(window.options.webPreferences.preload))
    expect(window.options.webPreferences.preload).toMatch(/preload[/\\]index\.js$/)
    expect(window.loaded).toBe('app://deskclaw/index.html')
    expect(window.options).toMatchObject({ x: 40, y: 60, width: 900, height: 600, minWidth: 720, minHeight: 480, show: false })
    window.emit('ready-to-show')
    expect(window.maximized).toBe(true)
    expect(window.visible).toBe(true)
  })

  it('remembers the place on close', () => {
    Object.defineProperty(process, 'platform', { value: 'linux' })
    windows.setupWindows({ dataDir })
    fake.windows[0].close()
    expect(JSON.parse(readFileSync(join(dataDir, 'window-state.json'), 'utf8'))).toEqual({
      bounds: { x: 10, y: 50, width: 1000, height: 700 },
      maximized: false
    })
    expect(windows.getMainWindow()).toBeNull()
    expect(fake.app.quit).toHaveBeenCalled()
  })

  it('hides into the tray on close while the tray says so, and closes when quitting', () => {
    Object.defineProperty(process, 'platform', { value: 'linux' })
    windows.setupWindows({ dataDir })
    const window = fake.windows[0]
    window.show()
    windows.setKeepRunningOnClose(() => true)
    window.close()
    expect(window.visible).toBe(false)
    expect(window.destroyed).toBe(false)
    expect(fake.app.quit).not.toHaveBeenCalled()
    expect(windows.showMainWindow()).toBe(window)
    expect(window.visible).toBe(true)

    fake.app.emit('before-quit')
    window.close()
    expect(window.destroyed).toBe(true)
  })

  it('closes for real when the tray hook is withdrawn', () => {
    Object.defineProperty(process, 'platform', { value: 'win32' })
    windows.setupWindows({ dataDir })
    windows.setKeepRunningOnClose(() => true)
    windows.setKeepRunningOnClose(null)
    fake.windows[0].close()
    expect(fake.windows[0].destroyed).toBe(true)
  })
})

describe('main.ts', () => {
  it('uses the one data folder, registers app:// before ready, and shows a failed start in an error box with exit code 1', async () => {
    const home = mkdtempSync(join(tmpdir(), 'deskclaw-home-'))
    vi.stubEnv('DESKCLAW_HOME', home)
    fake.app.whenReady.mockImplementationOnce(() => Promise.reject(new Error('The database is locked.\n    at somewhere')))
    vi.resetModules()
    await import('../../../src/main/electron/main')
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledWith(1))
    expect(fake.dialog.showErrorBox).toHaveBeenCalledWith('DeskClaw could not start', 'The database is locked.')
    expect(fake.app.setPath).toHaveBeenCalledWith('userData', home)
    const order = (mock: { mock: { invocationCallOrder: number[] } }) => mock.mock.invocationCallOrder[0]!
    expect(order(fake.app.setPath)).toBeLessThan(order(fake.app.requestSingleInstanceLock))
    expect(order(fake.protocol.registerSchemesAsPrivileged)).toBeLessThan(order(fake.app.whenReady))
    vi.unstubAllEnvs()
  })
})
