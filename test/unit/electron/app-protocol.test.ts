import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { contentSecurityPolicy } from '../../../src/main/bridge/csp'
import {
  APP_ORIGIN,
  APP_SCHEME_PRIVILEGES,
  appPageUrl,
  contentTypeFor,
  createAppRequestHandler,
  resolveAppRequest
} from '../../../src/main/electron/policy/app-protocol'

const root = '/app/out/renderer'

describe('the app:// scheme', () => {
  it('is app://deskclaw, standard and secure, fetchable, not readable cross-origin', () => {
    expect(APP_ORIGIN).toBe('app://deskclaw')
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      scheme: 'app',
      privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false }
    })
    expect(appPageUrl('palette.html')).toBe('app://deskclaw/palette.html')
  })
})

describe('resolveAppRequest', () => {
  it.each([
    ['app://deskclaw/', `${root}/index.html`],
    ['app://deskclaw', `${root}/index.html`],
    ['app://deskclaw/index.html', `${root}/index.html`],
    ['app://deskclaw/palette.html', `${root}/palette.html`],
    ['app://deskclaw/assets/index-abc.js', `${root}/assets/index-abc.js`],
    ['app://deskclaw/assets/index-abc.js?v=1#x', `${root}/assets/index-abc.js`],
    ['app://DESKCLAW/index.html', `${root}/index.html`],
    ['app://deskclaw/assets/with%20space.png', `${root}/assets/with space.png`],
    // The URL parser resolves dot segments first: these stay inside.
    ['app://deskclaw/../../etc/passwd', `${root}/etc/passwd`],
    ['app://deskclaw/%2e%2e/%2e%2e/etc/passwd', `${root}/etc/passwd`]
  ])('%s → %s', (url, file) => {
    expect(resolveAppRequest(url, root)).toBe(file)
  })

  it.each([
    'app://evil/index.html',
    'app://deskclaw.evil/index.html',
    'app://deskclaw:8080/index.html',
    'app://user:pass@deskclaw/index.html',
    'file:///app/out/renderer/index.html',
    'https://deskclaw/index.html',
    'app://deskclaw/assets%2F..%2F..%2Fsecret',
    'app://deskclaw/assets/..%2f..%2fsecret',
    'app://deskclaw/..%5c..%5csecret',
    'app://deskclaw/a%5cb',
    'app://deskclaw/%00index.html',
    'app://deskclaw/index.html%00.png',
    'app://deskclaw/%E0%A4%A',
    'app://deskclaw/C:%5cWindows',
    'app://deskclaw/assets/',
    'app://deskclaw/assets//x.js',
    'not a url'
  ])('refuses %s', (url) => {
    expect(resolveAppRequest(url, root)).toBeNull()
  })

  it('never answers with a path outside the renderer folder', () => {
    const samples = ['..', '%2e%2e', '.%2e', '%2E%2E%2F', '....', '%252e%252e', '%c0%ae%c0%ae', 'a/../..', '~', '%7e']
    for (const a of samples) {
      for (const b of samples) {
        const file = resolveAppRequest(`app://deskclaw/${a}/${b}/x`, root)
        if (file !== null) expect(file.startsWith(`${root}/`)).toBe(true)
      }
    }
  })
})

describe('contentTypeFor', () => {
  it.each([
    ['index.html', 'text/html; charset=utf-8'],
    ['a.js', 'text/javascript; charset=utf-8'],
    ['a.CSS', 'text/css; charset=utf-8'],
    ['a.svg', 'image/svg+xml'],
    ['a.woff2', 'font/woff2'],
    ['a.wasm', 'application/wasm'],
    ['a.exe', 'application/octet-stream'],
    ['Makefile', 'application/octet-stream']
  ])('%s → %s', (file, type) => expect(contentTypeFor(file)).toBe(type))
})

describe('createAppRequestHandler', () => {
  const csp = contentSecurityPolicy({ kind: 'electron' })
  let handler: (request: Request) => Promise<Response>

  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'deskclaw-app-protocol-'))
    const renderer = join(dir, 'renderer')
    mkdirSync(join(renderer, 'assets'), { recursive: true })
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>main</title>')
    writeFileSync(join(renderer, 'palette.html'), '<!doctype html><title>palette</title>')
    writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)')
    writeFileSync(join(dir, 'secret.txt'), 'secret')
    handler = createAppRequestHandler({ rendererDir: renderer, csp })
  })

  it.each([
    ['app://deskclaw/', 'main', 'text/html; charset=utf-8'],
    ['app://deskclaw/index.html', 'main', 'text/html; charset=utf-8'],
    ['app://deskclaw/palette.html', 'palette', 'text/html; charset=utf-8'],
    ['app://deskclaw/assets/app.js', 'console.log(1)', 'text/javascript; charset=utf-8']
  ])('serves %s with the Electron CSP', async (url, body, type) => {
    const response = await handler(new Request(url))
    expect(response.status).toBe(200)
    expect(await response.text()).toContain(body)
    expect(response.headers.get('content-type')).toBe(type)
    expect(response.headers.get('content-security-policy')).toBe(csp)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it.each([
    ['app://deskclaw/secret.txt', 404],
    ['app://deskclaw/assets', 404],
    ['app://deskclaw/missing.js', 404],
    ['app://deskclaw/..%2fsecret.txt', 403],
    ['app://other/index.html', 403]
  ])('%s → %i, still with the CSP', async (url, status) => {
    const response = await handler(new Request(url))
    expect(response.status).toBe(status)
    expect(response.headers.get('content-security-policy')).toBe(csp)
    expect(await response.text()).not.toContain('secret')
  })

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await handler(new Request('app://deskclaw/index.html', { method: 'HEAD' }))
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const post = await handler(new Request('app://deskclaw/index.html', { method: 'POST', body: 'x' }))
    expect(post.status).toBe(405)
  })
})
