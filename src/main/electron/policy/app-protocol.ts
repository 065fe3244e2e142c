/**
 * The app:// protocol that serves the built renderer (out/renderer) instead of file://: a real
 * origin (app://deskclaw) for the CSP, the IPC sender check and the permission check, and no
 * file:// page that could read the rest of the disk. Pure Node (no Electron) so it is tested as is;
 * protocol.ts registers it with Electron.
 */
import { readFile, stat } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'
import type { CustomScheme } from 'electron'

export const APP_SCHEME = 'app'
export const APP_HOST = 'deskclaw'
/** The origin of every page the app shows in production. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`

/**
 * Registered before 'ready': standard (relative URLs, an origin, storage), secure (a secure context,
 * so the clipboard API works), fetch allowed. Not corsEnabled: no other origin may read app:// files.
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false }
}

/** A renderer entry's URL on the app origin ('index.html', 'palette.html'). */
export function appPageUrl(page: string): string {
  return `${APP_ORIGIN}/${page}`
}

/**
 * The file an app:// request asks for, or null when it is refused: another scheme or host, a port
 * or credentials, a path that escapes rendererDir (.., encoded slashes or backslashes, NUL), or a
 * path that does not decode. "/" is index.html. Whether the file exists is the caller's question.
 */
export function resolveAppRequest(requestUrl: string, rendererDir: string): string | null {
  let url: URL
  try {
    url = new URL(requestUrl)
  } catch {
    return null
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.hostname.toLowerCase() !== APP_HOST) return null
  if (url.port || url.username || url.password) return null
  const rawSegments = url.pathname.split('/').slice(1)
  const segments: string[] = []
  for (const raw of rawSegments) {
    let segment: string
    try {
      segment = decodeURIComponent(raw)
    } catch {
      return null
    }
    if (segment === '.' || segment === '..' || /[/\\\0:]/.test(segment)) return null
    segments.push(segment)
  }
  if (segments.length === 0 || segments[segments.length - 1] === '') {
    if (segments.length > 1) return null // no directory listings, only the root page
    segments.splice(0, segments.length, 'index.html')
  }
  if (segments.some((segment) => segment === '')) return null
  const root = resolve(rendererDir)
  const file = resolve(root, ...segments)
  return file.startsWith(root + sep) ? file : null
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8'
}

/** Module scripts need a JavaScript type; anything unknown is served as opaque bytes. */
export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'
}

/**
 * The protocol handler: the file's bytes with its type, or 403 (refused) / 404 (missing) / 405
 * (not GET or HEAD). Every response carries the CSP and nosniff.
 */
export function createAppRequestHandler(options: { rendererDir: string; csp: string }): (request: Request) => Promise<Response> {
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
    'Content-Security-Policy': options.csp,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
    ...extra
  })
  const refuse = (status: number, text: string): Response =>
    new Response(text, { status, headers: headers({ 'Content-Type': 'text/plain; charset=utf-8' }) })
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'Method not allowed')
    const file = resolveAppRequest(request.url, options.rendererDir)
    if (!file) return refuse(403, 'Forbidden')
    try {
      if (!(await stat(file)).isFile()) return refuse(404, 'Not found')
      const body = request.method === 'HEAD' ? null : await readFile(file)
      return new Response(body, { status: 200, headers: headers({ 'Content-Type': contentTypeFor(file) }) })
    } catch {
      return refuse(404, 'Not found')
    }
  }
}
