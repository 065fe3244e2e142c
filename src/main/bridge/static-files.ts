import { createReadStream, existsSync, statSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, normalize, resolve, sep } from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf'
}

/** Serves the built renderer; refuses any path that resolves outside its folder. */
export function serveStatic(root: string, request: IncomingMessage, response: ServerResponse): void {
  const base = resolve(root)
  const urlPath = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)
  const relativePath = urlPath === '/' ? 'index.html' : normalize(urlPath).replace(/^([/\\])+/, '')
  const file = resolve(join(base, relativePath))
  if (file !== base && !file.startsWith(base + sep)) {
    response.writeHead(403).end('Forbidden')
    return
  }
  if (!existsSync(file) || !statSync(file).isFile()) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
    return
  }
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff'
  })
  createReadStream(file).pipe(response)
}
