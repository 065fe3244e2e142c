import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'
import type { WireMessage, WireRequest } from '../../shared'
import type { DeskclawApp } from '../app'
import { dispatchCall } from './dispatch'
import { createBridgeHandlers } from './handlers'
import { serveStatic } from './static-files'

export interface WebHostOptions {
  app: DeskclawApp
  /** The built renderer (out/renderer). */
  rendererDir: string
  host?: string
  port?: number
  /** Fixed token (tests); a random one otherwise. */
  token?: string
}

export interface WebHost {
  /** Open this in a browser: it carries the token. */
  url: string
  port: number
  token: string
  close(): Promise<void>
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])

/**
 * The web front door (`deskclaw web`): the built renderer over HTTP and the bridge over a
 * WebSocket, on loopback only, guarded by a random token and an Origin check so that no other
 * web page the user visits can drive the agent.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const host = options.host ?? '127.0.0.1'
  if (!LOOPBACK.has(host)) throw new Error(`The web host only listens on loopback (got ${host}).`)
  const token = options.token ?? randomBytes(24).toString('base64url')
  const table = createBridgeHandlers(options.app, 'websocket')

  const server: Server = createServer((request, response) => serveStatic(options.rendererDir, request, response))
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 })

  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const sameOrigin = request.headers.origin === undefined || isOwnOrigin(request.headers.origin, request.headers.host)
    if (url.pathname !== '/bridge' || !tokenMatches(url.searchParams.get('token'), token) || !sameOrigin) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n')
      socket.destroy()
      return
    }
    sockets.handleUpgrade(request, socket, head, (ws) => serveClient(ws))
  })

  const serveClient = (ws: WebSocket): void => {
    const detachFrontDoor = options.app.approvals.attachFrontDoor('web')
    const send = (message: WireMessage): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message))
    }
    const unsubscribe = options.app.events.subscribe((event) => send({ event }))
    ws.on('message', async (data) => {
      let request: WireRequest
      try {
        request = JSON.parse(String(data)) as WireRequest
      } catch {
        return // Not a frame of ours; nothing to answer.
      }
      if (typeof request?.id !== 'number' || typeof request.call !== 'string') return
      send({ id: request.id, result: await dispatchCall(table, request.call, request.input) })
    })
    ws.on('close', () => {
      unsubscribe()
      detachFrontDoor()
    })
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const shownHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      for (const client of sockets.clients) client.terminate()
      sockets.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

function tokenMatches(given: string | null, expected: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function isOwnOrigin(origin: string, hostHeader: string | undefined): boolean {
  try {
    return new URL(origin).host === hostHeader
  } catch {
    return false
  }
}
