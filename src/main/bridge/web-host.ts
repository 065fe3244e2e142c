import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, STATUS_CODES, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { errorMessage, type WireMessage, type WireRequest } from '../../shared'
import type { DeskclawApp } from '../app'
import { MAX_FRAME_BYTES, oversizeCall } from './call-size'
import { ClientFlow, DEFAULT_CLIENT_FLOW_LIMITS, type ClientFlowLimits, type ClientFlowStats } from './client-flow'
import { contentSecurityPolicy } from './csp'
import { dispatchCall } from './dispatch'
import { createBridgeHandlers } from './handlers'
import { acceptedHosts, checkHost, originAllowed, parseTarget } from './host-check'
import { sendText, serveStatic } from './static-files'

export interface WebHostOptions {
  app: DeskclawApp
  /** The built renderer (out/renderer). */
  rendererDir: string
  host?: string
  port?: number
  /** Fixed token (tests); a random one otherwise. */
  token?: string
  /** Flow-control bounds per client (tests shorten the times); DEFAULT_CLIENT_FLOW_LIMITS otherwise. */
  clientLimits?: Partial<ClientFlowLimits>
}

export interface WebHost {
  /** Open this in a browser: it carries the token. */
  url: string
  port: number
  token: string
  /** Each connected client's flow control: what waits in its socket, dropped events (diagnostics, tests). */
  clients(): ClientFlowStats[]
  close(): Promise<void>
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])

/**
 * The web front door (`deskclaw web`): the built renderer over HTTP and the bridge over a
 * WebSocket, on loopback only (docs/architecture.md, "Security of the front doors"):
 * - a random token guards the WebSocket;
 * - the `Host` header must be our own loopback address (DNS rebinding), and an `Origin`, if
 *   any, must be our own page, so no other web page the user visits can drive the agent;
 * - every answer carries the security headers (CSP, no referrer, no framing, no sniffing);
 * - nothing a client sends can crash it: malformed requests get a 4xx, and a failure
 *   anywhere in a handler a 500 or a closed connection;
 * - no client can make it buffer without limit: one that stops reading is paused, then closed
 *   (client-flow.ts), and each call's frame has a size limit (call-size.ts).
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const host = options.host ?? '127.0.0.1'
  if (!LOOPBACK.has(host)) throw new Error(`The web host only listens on loopback (got ${host}).`)
  const token = options.token ?? randomBytes(24).toString('base64url')
  const table = createBridgeHandlers(options.app, 'websocket')

  // Filled in once the port is known; until then every Host is refused.
  let accepted: ReadonlySet<string> = new Set()
  let defaultHeaders: OutgoingHttpHeaders = securityHeaders('127.0.0.1')
  const headersByHost = new Map<string, OutgoingHttpHeaders>()
  const headersFor = (acceptedHost: string): OutgoingHttpHeaders => {
    let headers = headersByHost.get(acceptedHost)
    if (!headers) headersByHost.set(acceptedHost, (headers = securityHeaders(acceptedHost)))
    return headers
  }

  const onRequest = (request: IncomingMessage, response: ServerResponse): void => {
    try {
      const hostCheck = checkHost(request.rawHeaders, accepted)
      if (!hostCheck.ok) {
        sendText(response, hostCheck.status, hostCheck.reason, defaultHeaders)
        return
      }
      const headers = headersFor(hostCheck.host)
      if (!originAllowed(request.headers.origin, accepted)) {
        sendText(response, 403, 'Forbidden origin', headers)
        return
      }
      serveStatic(options.rendererDir, request, response, headers)
    } catch {
      try {
        sendText(response, 500, 'Internal error', defaultHeaders)
      } catch {
        response.destroy()
      }
    }
  }

  const server: Server = createServer({ headersTimeout: 15_000, requestTimeout: 30_000 }, onRequest)
  // The largest call (agent.send with its attachments); each call's own limit is checked per frame.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES })
  const limits: ClientFlowLimits = { ...DEFAULT_CLIENT_FLOW_LIMITS, ...options.clientLimits }
  const flows = new Set<ClientFlow>()

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node hands the socket over without its error listener: a reset must not become an uncaught error.
    socket.on('error', () => socket.destroy())
    try {
      const hostCheck = checkHost(request.rawHeaders, accepted)
      if (!hostCheck.ok) return refuseSocket(socket, hostCheck.status, hostCheck.reason, defaultHeaders)
      const headers = headersFor(hostCheck.host)
      if (!originAllowed(request.headers.origin, accepted)) return refuseSocket(socket, 403, 'Forbidden origin', headers)
      if (request.method !== 'GET') return refuseSocket(socket, 405, 'Method not allowed', { ...headers, allow: 'GET' })
      const target = parseTarget(request.url)
      if (!target.ok) return refuseSocket(socket, target.status, target.reason, headers)
      if (target.pathname !== '/bridge') return refuseSocket(socket, 404, 'Not found', headers)
      if (!tokenMatches(target.params.get('token'), token)) return refuseSocket(socket, 403, 'Forbidden', headers)
      // ws answers a malformed handshake (wrong Upgrade, key or version) with a 400 itself.
      sockets.handleUpgrade(request, socket, head, (ws) => serveClient(ws))
    } catch {
      refuseSocket(socket, 500, 'Internal error', defaultHeaders)
    }
  })

  // A request Node cannot parse (bad request line, header without a colon, NUL, an overlong
  // header, a timeout): answer if nothing of a response has gone out yet, then close.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy()
      return
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
    refuseSocket(socket, status, STATUS_CODES[status] ?? 'Bad request', defaultHeaders)
  })

  // CONNECT (authority-form targets): we are not a proxy.
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy())
    refuseSocket(socket, 405, 'Method not allowed', { ...defaultHeaders, allow: 'GET, HEAD' })
  })

  const serveClient = (ws: WebSocket): void => {
    const detachFrontDoor = options.app.approvals.attachFrontDoor('web')
    const flow = new ClientFlow(ws, limits)
    flows.add(flow)
    const frame = (message: WireMessage): string => JSON.stringify(message)
    const unsubscribe = options.app.events.subscribe((event) => flow.sendEvent(frame({ event })))
    // Plug and unplug reach the page while it is connected (devices are polled only then).
    const stopWatchingDevices = options.app.watchDevices()
    // A protocol error (bad frame, too large, invalid UTF-8) closes this client, never the host.
    ws.on('error', () => ws.terminate())
    ws.on('message', (data: Buffer) => {
      let request: WireRequest
      try {
        request = JSON.parse(String(data)) as WireRequest
      } catch {
        return // Not a frame of ours; nothing to answer.
      }
      if (typeof request !== 'object' || request === null) return
      if (typeof request.id !== 'number' || typeof request.call !== 'string') return
      const { id, call, input } = request
      const tooLarge = oversizeCall(call, data.length)
      if (tooLarge) return flow.sendReply(frame({ id, result: tooLarge }))
      flow.admit(async () => {
        try {
          flow.sendReply(frame({ id, result: await dispatchCall(table, call, input) }))
        } catch (error) {
          flow.sendReply(frame({ id, result: { ok: false, error: { code: 'INTERNAL', message: errorMessage(error) } } }))
        }
      })
    })
    ws.on('close', () => {
      flows.delete(flow)
      flow.dispose()
      unsubscribe()
      stopWatchingDevices()
      detachFrontDoor()
    })
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  // After the start, a server error (say, out of file descriptors on accept) is logged, not thrown.
  server.on('error', (error) => console.warn(`[deskclaw] web host: ${errorMessage(error)}`))
  const address = server.address() as AddressInfo
  const port = address.port
  accepted = acceptedHosts(address.address, port)
  const shownHost = address.address.includes(':') ? `[${address.address}]` : address.address
  defaultHeaders = securityHeaders(`${shownHost}:${port}`)
  const urlHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${urlHost}:${port}/?token=${token}`,
    port,
    token,
    clients: () => [...flows].map((flow) => flow.stats()),
    close: async () => {
      for (const client of sockets.clients) client.terminate()
      sockets.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

/** The headers on every answer; `hostAndPort` is the Host the page was asked for. */
function securityHeaders(hostAndPort: string): OutgoingHttpHeaders {
  return {
    'content-security-policy': contentSecurityPolicy({ kind: 'web', origin: `http://${hostAndPort}` }),
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin'
  }
}

/** An HTTP answer written straight to a socket Node no longer manages (upgrade, parse error, CONNECT), then closed. */
function refuseSocket(socket: Duplex, status: number, reason: string, headers: OutgoingHttpHeaders): void {
  try {
    if (socket.destroyed || !socket.writable) {
      socket.destroy()
      return
    }
    const body = `${reason}\n`
    const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`, 'Connection: close', 'Content-Type: text/plain; charset=utf-8']
    lines.push(`Content-Length: ${Buffer.byteLength(body)}`, 'Cache-Control: no-store')
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) lines.push(`${name}: ${String(value)}`)
    socket.once('finish', () => socket.destroy())
    socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`)
  } catch {
    socket.destroy()
  }
}

function tokenMatches(given: string | null, expected: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}
