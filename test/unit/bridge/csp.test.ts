import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy } from '../../../src/main/bridge'

/** Every directive of every build, pinned: a change to the policy fails here first. */
const directives = (policy: string) => Object.fromEntries(policy.split('; ').map((part) => [part.split(' ')[0], part.split(' ').slice(1)]))

describe('contentSecurityPolicy', () => {
  const locked = {
    'default-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
    'frame-src': ["'none'"],
    'worker-src': ["'self'"]
  }

  it('electron: only the app itself, no inline script, no connections elsewhere', () => {
    expect(directives(contentSecurityPolicy({ kind: 'electron' }))).toEqual({ ...locked, 'script-src': ["'self'"], 'connect-src': ["'self'"] })
  })

  it('electron-dev: the dev server and its refresh preamble, nothing else', () => {
    expect(directives(contentSecurityPolicy({ kind: 'electron-dev', devServerUrl: 'http://localhost:5173/' }))).toEqual({
      ...locked,
      'script-src': ["'self'", "'unsafe-inline'", 'http://localhost:5173'],
      'connect-src': ["'self'", 'http://localhost:5173', 'ws://localhost:5173']
    })
  })

  it('web: the page and the WebSocket of its own origin', () => {
    expect(directives(contentSecurityPolicy({ kind: 'web', origin: 'http://127.0.0.1:4321' }))).toEqual({
      ...locked,
      'script-src': ["'self'"],
      'connect-src': ["'self'", 'ws://127.0.0.1:4321']
    })
  })
})
