import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy } from '../../../src/main/bridge/csp'
import { devServerResponseHeaders, withCspHeader } from '../../../src/main/electron/policy/dev-csp'

const dev = 'http://localhost:5173/'
const devCsp = contentSecurityPolicy({ kind: 'electron-dev', devServerUrl: dev })

describe('the dev server CSP', () => {
  it('replaces any Content-Security-Policy, whatever its case, and keeps the other headers', () => {
    expect(withCspHeader({ 'content-security-policy': ['x'], 'Content-Type': ['text/html'] }, 'y')).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': ['y']
    })
    expect(withCspHeader(undefined, 'y')).toEqual({ 'Content-Security-Policy': ['y'] })
  })

  it("adds the electron-dev policy to the dev server's responses (inline preamble and HMR socket allowed)", () => {
    const headers = devServerResponseHeaders('http://localhost:5173/src/main.tsx', { 'Content-Type': ['text/javascript'] }, dev)
    expect(headers).toEqual({ 'Content-Type': ['text/javascript'], 'Content-Security-Policy': [devCsp] })
    expect(devCsp).toMatch(/script-src 'self' 'unsafe-inline' http:\/\/localhost:5173/)
    expect(devCsp).toContain('ws://localhost:5173')
  })

  it.each(['https://example.com/', 'http://localhost:5174/', 'http://127.0.0.1:5173/', 'devtools://devtools/bundled/x.html'])(
    'leaves %s alone',
    (url) => {
      expect(devServerResponseHeaders(url, {}, dev)).toBeNull()
    }
  )
})
