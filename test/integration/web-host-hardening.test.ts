/**
 * The web host (`deskclaw web`) against hostile and malformed input (issue 13): DNS rebinding
 * (Host), foreign Origins, bad paths and percent-encodings, requests Node cannot parse, bad
 * WebSocket upgrades and frames, and a seeded fuzz of 1,000 raw requests after which the host
 * must still serve the page and the bridge. Raw TCP (node:net) so nothing normalises the bytes.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { connect as tcpConnect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { contentSecurityPolicy, startWebHost, type WebHost } from '../../src/main/bridge'
import { acceptedHosts, checkHost, originAllowed, parseTarget } from '../../src/main/bridge/host-check'
import { takeBridgeToken, type TokenPlace } from '../../src/renderer/src/bridge/token'
import type { WireMessage } from '../../src/shared'
import { createTempApp, type TempApp } from '../helpers/temp-app'

const TOKEN = 't'.repeat(32)
const WS_KEY = 'dGhlIHNhbXBsZSBub25jZQ=='

let temp: TempApp
let host: WebHost
let root: string
let rendererDir: string

beforeAll(async () => {
  temp = createTempApp('http://127.0.0.1:9/v1')
  root = mkdtempSync(join(tmpdir(), 'deskclaw-hardening-'))
  rendererDir = join(root, 'renderer')
  mkdirSync(join(rendererDir, 'assets'), { recursive: true })
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>DeskClaw</title>')
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)')
  writeFileSync(join(root, 'secret.txt'), 'not for the browser')
  symlinkSync(join(root, 'secret.txt'), join(rendererDir, 'assets', 'escape.txt'))
  host = await startWebHost({ app: temp.app, rendererDir, token: TOKEN })
})

afterAll(async () => {
  await host?.close()
  await temp?.dispose()
  rmSync(root, { recursive: true, force: true })
})

interface RawAnswer {
  /** The first status code on the wire; null when the connection closed (or timed out) without one. */
  status: number | null
  headers: Record<string, string>
  body: string
}

/**
 * Writes bytes on a fresh TCP connection and reads the first answer until the server closes
 * (requests here say `Connection: close`). With `end`, the client half-closes after writing:
 * Node then answers only what it answers at once (errors), not a file. Never rejects.
 */
function raw(
  request: string | Buffer,
  { end = false, timeoutMs = 3000, port = host.port, address = '127.0.0.1' } = {}
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    const socket = tcpConnect({ host: address, port })
    let done = false
    const finish = (): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve(parseAnswer(Buffer.concat(chunks).toString('latin1')))
    }
    const timer = setTimeout(finish, timeoutMs)
    socket.on('error', finish)
    socket.on('close', finish)
    socket.on('data', (chunk) => {
      chunks.push(chunk)
      // A 101 stays open: the status line is all we need.
      if (Buffer.concat(chunks).toString('latin1').startsWith('HTTP/1.1 101')) finish()
    })
    socket.on('connect', () => {
      if (end) socket.end(request)
      else socket.write(request)
    })
  })
}

function parseAnswer(text: string): RawAnswer {
  const match = /^HTTP\/1\.1 (\d{3}) /.exec(text)
  if (!match) return { status: null, headers: {}, body: text }
  const [head = '', body = ''] = text.split('\r\n\r\n', 2)
  const headers: Record<string, string> = {}
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(match[1]), headers, body }
}

const own = (): string => `127.0.0.1:${host.port}`
const get = (target: string, headers: string[] = [`Host: ${own()}`]): string =>
  [`GET ${target} HTTP/1.1`, ...headers, 'Connection: close', '', ''].join('\r\n')
const upgrade = (target: string, headers: string[] = [`Host: ${own()}`]): string =>
  [
    `GET ${target} HTTP/1.1`,
    ...headers,
    'Connection: Upgrade',
    'Upgrade: websocket',
    `Sec-WebSocket-Key: ${WS_KEY}`,
    'Sec-WebSocket-Version: 13',
    '',
    ''
  ].join('\r\n')

/** A real WebSocket client with the token, calling app.info. */
async function callAppInfo(): Promise<unknown> {
  const socket = await new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge?token=${TOKEN}`, { origin: `http://${own()}` })
    ws.once('open', () => resolve(ws))
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    ws.once('error', reject)
  })
  try {
    const reply = new Promise<WireMessage>((resolve) =>
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as WireMessage
        if ('id' in message && message.id === 7) resolve(message)
      })
    )
    socket.send(JSON.stringify({ id: 7, call: 'app.info', input: {} }))
    const message = await reply
    return 'result' in message ? message.result : null
  } finally {
    socket.close()
  }
}

describe('web host: malformed paths', () => {
  it.each(['/%ff', '/%', '/%zz', '/%E0%A4%A', '//', '///etc/passwd', '/%00', '/a%5cb', '/./index.html', '/a//b'])(
    'GET %s is a 400',
    async (target) => {
      expect((await raw(get(target))).status).toBe(400)
    }
  )

  it.each(['/../', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2fsecret.txt', '/assets/escape.txt'])(
    'GET %s (outside the renderer) is a 403',
    async (target) => {
      const answer = await raw(get(target))
      expect(answer.status).toBe(403)
      expect(answer.body).not.toContain('not for the browser')
    }
  )

  it.each([`http://${'127.0.0.1'}:PORT/`, 'http://attacker.example/', '127.0.0.1:PORT', '*'])(
    'a target that is not origin-form (%s) is a 400',
    async (target) => {
      expect((await raw(get(target.replace('PORT', String(host.port))))).status).toBe(400)
    }
  )

  it('/%ff and // as WebSocket upgrades, with the token, are 400s too', async () => {
    expect((await raw(upgrade(`/%ff?token=${TOKEN}`))).status).toBe(400)
    expect((await raw(upgrade(`//bridge?token=${TOKEN}`))).status).toBe(400)
    expect((await raw(upgrade('//'))).status).toBe(400)
    expect((await raw(upgrade(`/bridge%ff?token=${TOKEN}`))).status).toBe(400)
  })

  it('an upgrade elsewhere is a 404, a wrong or missing token a 403, a bad handshake a 400', async () => {
    expect((await raw(upgrade(`/?token=${TOKEN}`))).status).toBe(404)
    expect((await raw(upgrade('/bridge'))).status).toBe(403)
    expect((await raw(upgrade('/bridge?token=%ff'))).status).toBe(403)
    expect((await raw(upgrade(`/bridge?token=${TOKEN}x`))).status).toBe(403)
    const badVersion = upgrade(`/bridge?token=${TOKEN}`).replace('Version: 13', 'Version: 99')
    expect((await raw(badVersion)).status).toBe(400)
    const noKey = upgrade(`/bridge?token=${TOKEN}`).replace(`Sec-WebSocket-Key: ${WS_KEY}\r\n`, '')
    expect((await raw(noKey)).status).toBe(400)
    const post = upgrade(`/bridge?token=${TOKEN}`).replace(/^GET/, 'POST')
    expect((await raw(post)).status).toBe(405)
    expect((await raw(upgrade(`/bridge?token=${TOKEN}`))).status).toBe(101)
  })

  it('requests Node cannot parse get a 400 (or 431) and the connection is closed', async () => {
    expect((await raw(`GET / HTTP/1.1\r\nHost: ${own()}\r\nNoColonHere\r\n\r\n`)).status).toBe(400)
    expect((await raw(`GET / HTTP/1.1\r\nHost: ${own()}\r\nX-Nul: a\0b\r\n\r\n`)).status).toBe(400)
    expect((await raw(`GET /\0 HTTP/1.1\r\nHost: ${own()}\r\n\r\n`)).status).toBe(400)
    expect((await raw(`GARBAGE\r\n\r\n`)).status).toBe(400)
    expect((await raw(`GET / HTTP/1.1\r\nHost: ${own()}\r\nX-Long: ${'a'.repeat(40_000)}\r\n\r\n`)).status).toBe(431)
    const smuggle = `POST / HTTP/1.1\r\nHost: ${own()}\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`
    expect((await raw(smuggle)).status).toBe(400)
  })

  it('only GET and HEAD for files', async () => {
    const post = await raw(`POST / HTTP/1.1\r\nHost: ${own()}\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi`)
    expect(post.status).toBe(405)
    expect(post.headers.allow).toBe('GET, HEAD')
    expect((await raw(get('/').replace(/^GET/, 'OPTIONS'))).status).toBe(405)
    expect((await raw(get('/').replace(/^GET/, 'CONNECT'))).status).toBe(405)
    expect((await raw(`CONNECT ${own()} HTTP/1.1\r\nHost: ${own()}\r\n\r\n`)).status).toBe(405)
    const head = await raw(get('/').replace(/^GET/, 'HEAD'))
    expect(head.status).toBe(200)
    expect(head.headers['content-length']).toBe(String('<!doctype html><title>DeskClaw</title>'.length))
    expect(head.body).toBe('')
  })
})

describe('web host: Host and Origin (DNS rebinding)', () => {
  const attacker = (): string => `Host: attacker.example:${host.port}`

  it('refuses a foreign Host for pages, with or without the token', async () => {
    for (const target of ['/', `/?token=${TOKEN}`, '/assets/app.js', '/%ff', '//']) {
      const answer = await raw(get(target, [attacker()]))
      expect(answer.status, target).toBe(403)
      expect(answer.body).not.toContain('DeskClaw')
    }
  })

  it('refuses a foreign Host for the WebSocket, with or without the token', async () => {
    expect((await raw(upgrade(`/bridge?token=${TOKEN}`, [attacker()]))).status).toBe(403)
    expect((await raw(upgrade('/bridge', [attacker()]))).status).toBe(403)
    expect((await raw(upgrade(`/bridge?token=${TOKEN}`, [attacker(), `Origin: http://attacker.example:${host.port}`]))).status).toBe(403)
  })

  it('refuses a foreign Origin even with our Host and the token', async () => {
    for (const origin of [`http://attacker.example:${host.port}`, 'null', `https://${own()}`, `http://${own()}.evil`, 'http://127.0.0.1']) {
      expect((await raw(upgrade(`/bridge?token=${TOKEN}`, [`Host: ${own()}`, `Origin: ${origin}`]))).status, origin).toBe(403)
      expect((await raw(get('/', [`Host: ${own()}`, `Origin: ${origin}`]))).status, origin).toBe(403)
    }
  })

  it.each([
    ['a missing Host', [], 400],
    ['two Host headers, both ours', ['Host: OWN', 'Host: OWN'], 400],
    ['ours then a foreign one', ['Host: OWN', 'Host: attacker.example'], 400],
    ['no port', ['Host: 127.0.0.1'], 403],
    ['another port', ['Host: 127.0.0.1:1'], 403],
    ['a trailing dot', ['Host: localhost.:PORT'], 403],
    ['IPv6 loopback while bound to IPv4', ['Host: [::1]:PORT'], 403],
    ['userinfo', ['Host: attacker.example@127.0.0.1:PORT'], 403],
    ['non-ASCII', ['Host: dëskclaw.example:PORT'], 403],
    ['huge', [`Host: ${'a'.repeat(8000)}:PORT`], 403],
    ['empty', ['Host: '], 403]
  ])('%s is refused', async (_name, lines, status) => {
    const headers = lines.map((line) => line.replace('OWN', own()).replace('PORT', String(host.port)))
    expect((await raw(Buffer.from(get('/', headers), 'utf8'))).status).toBe(status)
    expect((await raw(Buffer.from(upgrade(`/bridge?token=${TOKEN}`, headers), 'utf8'))).status).not.toBe(101)
  })

  it('accepts localhost and 127.0.0.1, in any case', async () => {
    for (const name of ['127.0.0.1', 'localhost', 'LocalHost']) {
      expect((await raw(get('/', [`Host: ${name}:${host.port}`]))).status, name).toBe(200)
    }
    expect((await raw(upgrade(`/bridge?token=${TOKEN}`, [`Host: localhost:${host.port}`, `Origin: http://localhost:${host.port}`]))).status).toBe(101)
  })
})

describe('web host: on IPv6 loopback', () => {
  it('answers to [::1]:PORT and localhost:PORT, not 127.0.0.1:PORT', async (context) => {
    let v6: WebHost
    try {
      v6 = await startWebHost({ app: temp.app, rendererDir, host: '::1', token: TOKEN })
    } catch {
      context.skip() // no IPv6 loopback here
      return
    }
    try {
      const at = { port: v6.port, address: '::1' }
      expect(v6.url).toBe(`http://[::1]:${v6.port}/?token=${TOKEN}`)
      expect((await raw(get('/', [`Host: [::1]:${v6.port}`]), at)).status).toBe(200)
      expect((await raw(get('/', [`Host: localhost:${v6.port}`]), at)).status).toBe(200)
      expect((await raw(get('/', [`Host: 127.0.0.1:${v6.port}`]), at)).status).toBe(403)
      const answer = await raw(upgrade(`/bridge?token=${TOKEN}`, [`Host: [::1]:${v6.port}`, `Origin: http://[::1]:${v6.port}`]), at)
      expect(answer.status).toBe(101)
      const page = await raw(get('/', [`Host: [::1]:${v6.port}`]), at)
      expect(page.headers['content-security-policy']).toContain(`ws://[::1]:${v6.port}`)
    } finally {
      await v6.close()
    }
  })
})

describe('web host: headers', () => {
  it('sends the security headers and the CSP of the Host asked for', async () => {
    const answer = await raw(get('/', [`Host: localhost:${host.port}`]))
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toMatch(/^text\/html/)
    expect(answer.headers['content-security-policy']).toBe(contentSecurityPolicy({ kind: 'web', origin: `http://localhost:${host.port}` }))
    expect(answer.headers['content-security-policy']).toContain(`ws://localhost:${host.port}`)
    expect(answer.headers).toMatchObject({
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin'
    })
  })

  it('on errors and refused upgrades too', async () => {
    for (const request of [get('/missing.js'), get('/%ff'), get('/', [`Host: attacker.example:${host.port}`]), upgrade('/bridge')]) {
      const answer = await raw(request)
      expect(answer.status).toBeGreaterThanOrEqual(400)
      expect(answer.headers['x-frame-options']).toBe('DENY')
      expect(answer.headers['referrer-policy']).toBe('no-referrer')
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    }
  })

  it('through fetch: the page is cached only with revalidation, scripts are typed', async () => {
    const index = await fetch(`http://${own()}/?token=${TOKEN}`)
    expect(index.status).toBe(200)
    expect(index.headers.get('cache-control')).toBe('no-cache')
    const script = await fetch(`http://${own()}/assets/app.js`)
    expect(script.headers.get('content-type')).toMatch(/javascript/)
    expect(script.headers.get('cross-origin-resource-policy')).toBe('same-origin')
  })
})

describe('web host: the WebSocket after a bad client', () => {
  it('a bad frame closes that client, not the host', async () => {
    const socket = await new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`ws://${own()}/bridge?token=${TOKEN}`)
      ws.once('open', () => resolve(ws))
      ws.once('error', reject)
    })
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    socket.on('error', () => {})
    // An unmasked frame with a reserved opcode: a protocol error on the server side.
    ;(socket as unknown as { _socket: Socket })._socket.write(Buffer.from([0x83, 0x01, 0x00]))
    await closed
    expect(await callAppInfo()).toMatchObject({ ok: true })
  })
})

describe('web host: fuzz', () => {
  it('survives 1,000 malformed raw requests and still serves the page and the bridge', async () => {
    const cases = generateCases(0xdec1a3, 1000, host.port)
    const failures: string[] = []
    const statuses = new Map<string, number>()
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < cases.length) {
        const fuzzCase = cases[next++]!
        const answer = await raw(fuzzCase.bytes, { end: fuzzCase.mode === 'end', timeoutMs: fuzzCase.mode === 'wait' ? 300 : 2000 })
        const key = String(answer.status)
        statuses.set(key, (statuses.get(key) ?? 0) + 1)
        if (answer.status !== null && answer.status >= 500) failures.push(`${answer.status} for ${JSON.stringify(fuzzCase.bytes.toString('latin1').slice(0, 200))}`)
        if (fuzzCase.mustRefuse && (answer.status === 200 || answer.status === 101)) {
          failures.push(`${answer.status} for a request that must be refused: ${JSON.stringify(fuzzCase.bytes.toString('latin1').slice(0, 200))}`)
        }
      }
    }
    await Promise.all(Array.from({ length: 24 }, () => worker()))
    expect(failures).toEqual([])
    // The fuzz reached the parser, the Host check, the static files and the upgrade handler.
    for (const status of ['400', '403', '404']) expect(statuses.get(status) ?? 0, status).toBeGreaterThan(0)

    const index = await raw(get('/'))
    expect(index.status).toBe(200)
    expect(index.body).toContain('DeskClaw')
    expect(await callAppInfo()).toMatchObject({ ok: true })
  }, 30_000)
})

describe('host-check (pure)', () => {
  it('accepts the bound address and localhost, with the port', () => {
    expect([...acceptedHosts('127.0.0.1', 5000)].sort()).toEqual(['127.0.0.1:5000', 'localhost:5000'])
    expect([...acceptedHosts('::1', 5000)].sort()).toEqual(['[::1]:5000', 'localhost:5000'])
    expect([...acceptedHosts('localhost', 5000)].sort()).toEqual(['127.0.0.1:5000', '[::1]:5000', 'localhost:5000'])
    expect(acceptedHosts('127.0.0.1', 80).has('localhost')).toBe(true)
  })

  it('checks Host from the raw header list and Origin against it', () => {
    const accepted = acceptedHosts('127.0.0.1', 5000)
    expect(checkHost(['Host', 'LOCALHOST:5000'], accepted)).toEqual({ ok: true, host: 'localhost:5000' })
    expect(checkHost(['host', '127.0.0.1:5000', 'HOST', '127.0.0.1:5000'], accepted)).toMatchObject({ ok: false, status: 400 })
    expect(checkHost(['X-Host', '127.0.0.1:5000'], accepted)).toMatchObject({ ok: false, status: 400 })
    expect(checkHost(['Host', 'evil:5000'], accepted)).toMatchObject({ ok: false, status: 403 })
    expect(originAllowed(undefined, accepted)).toBe(true)
    expect(originAllowed('http://localhost:5000', accepted)).toBe(true)
    expect(originAllowed(['http://localhost:5000'], accepted)).toBe(false)
    expect(originAllowed('http://localhost:5000/', accepted)).toBe(false)
    expect(originAllowed('ws://localhost:5000', accepted)).toBe(false)
  })

  it('parses targets without ever throwing', () => {
    expect(parseTarget('/bridge?token=%ff')).toMatchObject({ ok: true, pathname: '/bridge' })
    expect(parseTarget('/')).toMatchObject({ ok: true, segments: [] })
    expect(parseTarget('/assets/')).toMatchObject({ ok: true, segments: ['assets', ''] })
    for (const bad of [undefined, '', '*', '//', '/%ff', 'http://x/', '/a\\b', '/#x', '/a b']) {
      expect(parseTarget(bad), String(bad)).toMatchObject({ ok: false, status: 400 })
    }
    expect(parseTarget('/%2e%2e/x')).toMatchObject({ ok: false, status: 403 })
  })
})

describe('renderer: the token leaves the address bar', () => {
  const place = (href: string, stored: Record<string, string> = {}): TokenPlace & { href: () => string; stored: Record<string, string> } => {
    let url = new URL(href)
    const state = { marker: 1 }
    return {
      location: {
        get pathname() {
          return url.pathname
        },
        get search() {
          return url.search
        },
        get hash() {
          return url.hash
        }
      },
      history: {
        state,
        replaceState(data, _unused, next) {
          expect(data).toBe(state)
          url = new URL(next ?? '', url)
        }
      },
      storage: {
        getItem: (key) => stored[key] ?? null,
        setItem: (key, value) => {
          stored[key] = value
        }
      },
      href: () => url.href,
      stored
    }
  }

  it('reads the token, drops it from the URL (keeping the rest) and keeps it for a reload', () => {
    const tab = place('http://127.0.0.1:5000/palette.html?x=1&token=abc&y=2#frag')
    expect(takeBridgeToken(tab)).toBe('abc')
    expect(tab.href()).toBe('http://127.0.0.1:5000/palette.html?x=1&y=2#frag')
    const reloaded = place(tab.href(), tab.stored)
    expect(takeBridgeToken(reloaded)).toBe('abc')
    const only = place('http://127.0.0.1:5000/?token=abc')
    takeBridgeToken(only)
    expect(only.href()).toBe('http://127.0.0.1:5000/')
  })

  it('a new token in the URL wins over the stored one; no token anywhere is ""', () => {
    const tab = place('http://127.0.0.1:5000/?token=new', { 'deskclaw.bridgeToken': 'old' })
    expect(takeBridgeToken(tab)).toBe('new')
    expect(takeBridgeToken(place('http://127.0.0.1:5000/', tab.stored))).toBe('new')
    expect(takeBridgeToken(place('http://127.0.0.1:5000/'))).toBe('')
  })

  it('works without storage and when the browser refuses it', () => {
    const noStorage = { ...place('http://127.0.0.1:5000/?token=abc'), storage: null }
    expect(takeBridgeToken(noStorage)).toBe('abc')
    const refusing: TokenPlace = {
      ...place('http://127.0.0.1:5000/'),
      storage: {
        getItem: () => {
          throw new Error('SecurityError')
        },
        setItem: () => {
          throw new Error('SecurityError')
        }
      }
    }
    expect(takeBridgeToken(refusing)).toBe('')
    expect(takeBridgeToken({ ...refusing, location: { pathname: '/', search: '?token=abc', hash: '' } })).toBe('abc')
  })
})

interface FuzzCase {
  bytes: Buffer
  /** Refused for sure (no Host, a foreign or a second Host, a foreign Origin): never a 200 or a 101. */
  mustRefuse: boolean
  /** end: write and half-close; wait: write, wait briefly, reset; reset: write and reset at once. */
  mode: 'end' | 'wait' | 'reset'
}

/** A seeded generator of malformed (and a few well-formed) requests. */
function generateCases(seed: number, count: number, port: number): FuzzCase[] {
  let state = seed >>> 0
  const random = (): number => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const chance = (p: number): boolean => random() < p
  const randomBytes = (length: number): Buffer => Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)))
  const randomPath = (): string => {
    const alphabet = ['a', 'b', '/', '.', '%', 'f', 'F', 'z', '2', 'e', '0', '?', '=', '&', '#', '\\', ' ', 'ü', '\x7f', ';', '~', '..']
    return '/' + Array.from({ length: 1 + Math.floor(random() * 24) }, () => pick(alphabet)).join('')
  }

  const goodHosts = [`127.0.0.1:${port}`, `localhost:${port}`]
  const badHosts = [
    `attacker.example:${port}`,
    'attacker.example',
    '127.0.0.1',
    `127.0.0.1:${port + 1}`,
    `localhost.:${port}`,
    `[::1]:${port}`,
    `127.1:${port}`,
    `0x7f.0.0.1:${port}`,
    `attacker.example@127.0.0.1:${port}`,
    `127.0.0.1:${port}.attacker.example`,
    `dëskclaw:${port}`,
    `${'h'.repeat(9000)}:${port}`,
    ''
  ]
  const targets = [
    '/',
    '/index.html',
    '/assets/app.js',
    '/assets/',
    '/missing.js',
    '/%ff',
    '/%',
    '/%zz',
    '/%2',
    '//',
    '///etc/passwd',
    '/../',
    '/..',
    '/../../../../etc/passwd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/escape.txt',
    '/%00',
    '/%5c..%5c',
    '/bridge',
    `/bridge?token=${TOKEN}`,
    '/bridge?token=%ff',
    '/bridge?token=',
    `/bridge/?token=${TOKEN}`,
    `//bridge?token=${TOKEN}`,
    `/?token=${TOKEN}`,
    '/?token=%',
    `http://127.0.0.1:${port}/`,
    `http://attacker.example:${port}/bridge?token=${TOKEN}`,
    `127.0.0.1:${port}`,
    'attacker.example:443',
    '*',
    '',
    `/${'a'.repeat(20_000)}`,
    '/ü',
    '/\x7f',
    '/a b',
    '/#frag',
    '/.',
    '/./index.html'
  ]
  const methods = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT', 'PATCH', 'get', 'G\0T', '', 'GET GET', 'ÄÖÜ', 'X'.repeat(300)]
  const versions = ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'http/1.1', '', 'HTTP/1.1 extra', 'HTTP/']
  const junkHeaders = [
    'NoColonHere',
    'Bad Header: x',
    ': empty-name',
    'X-Nul: a\0b',
    `X-Long: ${'a'.repeat(20_000)}`,
    ' folded-continuation',
    'Content-Length: abc',
    'Content-Length: 5\r\nTransfer-Encoding: chunked',
    'Transfer-Encoding: gzip, chunked',
    'Nämé: value',
    'X-Ctl: a\x01b',
    'Expect: 100-continue',
    'Content-Length: 99999999999999999999'
  ]
  const origins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://attacker.example:${port}`, 'null', `https://127.0.0.1:${port}`, 'garbage', '']

  const cases: FuzzCase[] = []
  for (let i = 0; i < count; i++) {
    const mode: FuzzCase['mode'] = chance(0.85) ? 'end' : chance(0.5) ? 'wait' : 'reset'
    if (chance(0.04)) {
      cases.push({ bytes: randomBytes(1 + Math.floor(random() * 400)), mustRefuse: true, mode })
      continue
    }
    const method = pick(methods)
    const target = chance(0.25) ? randomPath() : pick(targets)
    const version = pick(versions)
    const lines: string[] = [[method, target, version].filter((part, index) => index !== 1 || part !== '' || chance(0.5)).join(' ')]
    let hostLines = 0
    let hostOk = true
    const hostChoice = random()
    if (hostChoice < 0.45) {
      lines.push(`Host: ${pick(goodHosts)}`)
      hostLines = 1
    } else if (hostChoice < 0.8) {
      lines.push(`Host: ${pick(badHosts)}`)
      hostLines = 1
      hostOk = false
    } else if (hostChoice < 0.9) {
      lines.push(`Host: ${pick(goodHosts)}`, `${pick(['Host', 'host', 'HOST'])}: ${pick([...goodHosts, ...badHosts])}`)
      hostLines = 2
    } // else: no Host at all
    if (hostLines !== 1) hostOk = false
    let originOk = true
    if (chance(0.3)) {
      const origin = pick(origins)
      lines.push(`Origin: ${origin}`)
      originOk = origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`
    }
    if (chance(0.45)) {
      lines.push(
        pick(['Connection: Upgrade', 'Connection: keep-alive, Upgrade', 'Connection: close']),
        pick(['Upgrade: websocket', 'Upgrade: WebSocket', 'Upgrade: h2c', 'Upgrade: ', 'Upgrade: websocket, h2c'])
      )
      if (chance(0.8)) lines.push(`Sec-WebSocket-Key: ${pick([WS_KEY, 'short', '', '%%%'])}`)
      if (chance(0.8)) lines.push(`Sec-WebSocket-Version: ${pick(['13', '8', 'x', ''])}`)
      if (chance(0.1)) lines.push('Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=99; ;;')
      if (chance(0.1)) lines.push('Sec-WebSocket-Protocol: a,,a, b')
    }
    const junkCount = chance(0.4) ? 1 + Math.floor(random() * 3) : 0
    for (let j = 0; j < junkCount; j++) lines.push(pick(junkHeaders))
    const eol = chance(0.85) ? '\r\n' : pick(['\n', '\r', '\r\r\n', '\n\r'])
    let text = lines.join(eol) + eol + (chance(0.9) ? eol : '')
    if (chance(0.1)) text += pick(['hello', '0\r\n\r\n', `GET / HTTP/1.1\r\nHost: ${goodHosts[0]}\r\n\r\n`, '\0\0\0'])
    const bytes = Buffer.from(text, chance(0.5) ? 'utf8' : 'latin1')
    let mustRefuse = !hostOk || !originOk
    if (chance(0.05)) {
      // Flip a few bytes anywhere (which may as well repair a refused request: no claim then).
      for (let k = 0; k < 3; k++) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256)
      mustRefuse = false
    }
    cases.push({ bytes, mustRefuse, mode })
  }
  return cases
}
