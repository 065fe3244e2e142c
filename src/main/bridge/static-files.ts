import { createReadStream, realpathSync, statSync, type Stats } from 'node:fs'
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { extname, resolve, sep } from 'node:path'
import { pipeline } from 'node:stream'
import { parseTarget } from './host-check'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf'
}

/** A short plain-text answer (errors): never cached, never sniffed. */
export function sendText(response: ServerResponse, status: number, text: string, headers: OutgoingHttpHeaders = {}): void {
  if (response.headersSent) {
    response.destroy()
    return
  }
  const body = `${text}\n`
  response.writeHead(status, {
    ...headers,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store'
  })
  response.end(response.req?.method === 'HEAD' ? undefined : body)
}

/**
 * Serves the built renderer, GET and HEAD only; refuses any path that resolves outside its
 * folder (after symlinks too). Total: a malformed path is a 400, a missing file a 404, and an
 * unexpected failure a 500 or a closed connection, never an exception. `headers` go on every
 * answer (the web host's security headers).
 */
export function serveStatic(root: string, request: IncomingMessage, response: ServerResponse, headers: OutgoingHttpHeaders = {}): void {
  try {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendText(response, 405, 'Method not allowed', { ...headers, allow: 'GET, HEAD' })
      return
    }
    const target = parseTarget(request.url)
    if (!target.ok) {
      sendText(response, target.status, target.reason, headers)
      return
    }
    const file = findFile(root, target.segments.length === 0 ? ['index.html'] : target.segments)
    if (file === 'outside') {
      sendText(response, 403, 'Forbidden', headers)
      return
    }
    if (!file) {
      sendText(response, 404, 'Not found', headers)
      return
    }
    response.writeHead(200, {
      ...headers,
      'content-type': CONTENT_TYPES[extname(file.path).toLowerCase()] ?? 'application/octet-stream',
      'content-length': file.stats.size,
      'cache-control': 'no-cache'
    })
    if (request.method === 'HEAD') {
      response.end()
      return
    }
    // A read error (the file vanished, a disk error) ends the connection; it is never thrown.
    pipeline(createReadStream(file.path), response, () => {})
  } catch {
    sendText(response, 500, 'Internal error', headers)
  }
}

function findFile(root: string, segments: string[]): { path: string; stats: Stats } | 'outside' | null {
  const base = resolve(root)
  const path = resolve(base, ...segments)
  if (!inside(base, path)) return 'outside'
  let stats: Stats
  let real: string
  let realBase: string
  try {
    stats = statSync(path)
    if (!stats.isFile()) return null
    real = realpathSync(path)
    realBase = realpathSync(base)
  } catch {
    return null
  }
  if (!inside(realBase, real)) return 'outside'
  return { path: real, stats }
}

function inside(base: string, path: string): boolean {
  return path.startsWith(base.endsWith(sep) ? base : base + sep)
}
