import { describe, expect, it } from 'vitest'
import { rendererPageUrl, rendererUrlRule } from '../../../src/main/electron/policy/renderer-url'

describe('rendererUrlRule', () => {
  it.each([
    'http://localhost:5173',
    'http://localhost:5173/',
    'http://127.0.0.1:5173/',
    'http://[::1]:5173/',
    'https://localhost:5173/',
    'http://LOCALHOST:5173/'
  ])('obeys %s in development', (url) => {
    const rule = rendererUrlRule({ isPackaged: false, env: { ELECTRON_RENDERER_URL: url } })
    expect(rule.devServerUrl).toBe(new URL(url).href)
    expect(rule.warning).toBeNull()
  })

  it('has nothing to say when the variable is unset or empty', () => {
    expect(rendererUrlRule({ isPackaged: false, env: {} })).toEqual({ devServerUrl: null, warning: null })
    expect(rendererUrlRule({ isPackaged: true, env: { ELECTRON_RENDERER_URL: '  ' } })).toEqual({ devServerUrl: null, warning: null })
  })

  it('ignores it, with a warning, in a packaged app', () => {
    const rule = rendererUrlRule({ isPackaged: true, env: { ELECTRON_RENDERER_URL: 'http://localhost:5173/' } })
    expect(rule.devServerUrl).toBeNull()
    expect(rule.warning).toMatch(/ignored.*packaged/)
  })

  it.each([
    'http://example.com:5173/',
    'http://192.168.1.10:5173/',
    'http://0.0.0.0:5173/',
    'http://localhost.evil.com/',
    'http://127.0.0.1.nip.io/',
    'http://user:pw@localhost:5173/',
    'file:///tmp/index.html',
    'ws://localhost:5173/',
    'javascript:alert(1)',
    'localhost:5173',
    'not a url'
  ])('ignores %s, with a warning', (url) => {
    const rule = rendererUrlRule({ isPackaged: false, env: { ELECTRON_RENDERER_URL: url } })
    expect(rule.devServerUrl).toBeNull()
    expect(rule.warning).toMatch(/ELECTRON_RENDERER_URL is ignored/)
  })
})

describe('rendererPageUrl', () => {
  it('is on app:// without a dev server, on the dev server with one', () => {
    expect(rendererPageUrl('index.html', null)).toBe('app://deskclaw/index.html')
    expect(rendererPageUrl('palette.html', undefined)).toBe('app://deskclaw/palette.html')
    expect(rendererPageUrl('palette.html', 'http://localhost:5173/')).toBe('http://localhost:5173/palette.html')
  })
})
