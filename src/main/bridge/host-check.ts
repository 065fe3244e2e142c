/**
 * The web host's checks on who is asking and for what (docs/architecture.md, "Security of the
 * front doors"). Pure and total: every function answers for any input, never throws, so a
 * malformed request gets a 4xx and never takes the host down.
 */

/** A refusal: the status to answer and a short reason for the body. */
export interface Refusal {
  ok: false
  status: 400 | 403 | 404 | 405
  reason: string
}

/**
 * The `Host` header values the web host answers to, lowercase: its own loopback address and
 * `localhost`, with the port. Anything else is a DNS-rebinding attempt (a hostile name that
 * resolves to 127.0.0.1) or a mistake.
 */
export function acceptedHosts(boundAddress: string, port: number): Set<string> {
  const names = new Set<string>(['localhost'])
  if (boundAddress === '::1' || boundAddress === '[::1]') names.add('[::1]')
  else if (boundAddress === 'localhost') names.add('127.0.0.1').add('[::1]')
  else names.add(boundAddress.toLowerCase())
  const hosts = new Set<string>()
  for (const name of names) {
    hosts.add(`${name}:${port}`)
    // A browser leaves the default port out of Host (and Origin).
    if (port === 80) hosts.add(name)
  }
  return hosts
}

/**
 * Exactly one `Host` header, and one of ours. `rawHeaders` is Node's flat name/value list, so a
 * duplicated Host (which Node's `headers.host` silently collapses) is seen and refused.
 */
export function checkHost(rawHeaders: readonly string[], accepted: ReadonlySet<string>): { ok: true; host: string } | Refusal {
  const values: string[] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'host') values.push(rawHeaders[i + 1]!)
  }
  if (values.length === 0) return { ok: false, status: 400, reason: 'Missing Host header' }
  if (values.length > 1) return { ok: false, status: 400, reason: 'More than one Host header' }
  const host = values[0]!.trim().toLowerCase()
  if (!accepted.has(host)) return { ok: false, status: 403, reason: 'Unknown Host' }
  return { ok: true, host }
}

/** No Origin (not a browser, or a same-origin GET) is fine; if there is one it must be ours. */
export function originAllowed(origin: string | string[] | undefined, accepted: ReadonlySet<string>): boolean {
  if (origin === undefined) return true
  if (typeof origin !== 'string') return false
  const value = origin.trim().toLowerCase()
  return value.startsWith('http://') && accepted.has(value.slice('http://'.length))
}

export interface Target {
  ok: true
  /** The decoded path, starting with `/`. */
  pathname: string
  /** The decoded path's segments ([] for `/`); never `.`, `..` or empty (except a trailing one). */
  segments: string[]
  /** The query, parsed leniently (a bad percent-encoding there becomes U+FFFD, not an error). */
  params: URLSearchParams
}

// Printable ASCII only; no backslash (a Windows separator), no `#` (never sent by a browser).
const RAW_PATH = /^\/[\x21-\x7e]*$/

/** A control character (C0 or DEL) or a backslash. */
function hasBadCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true
  }
  return false
}

/**
 * Parses a request target. Only origin-form (`/path?query`) is accepted: absolute-form
 * (`http://host/…`, which would bypass the Host check), authority-form, `*`, `//…`, bad
 * percent-encodings and control characters are 400; a `..` segment is 403.
 */
export function parseTarget(url: string | undefined): Target | Refusal {
  const bad = (reason: string): Refusal => ({ ok: false, status: 400, reason })
  if (typeof url !== 'string' || !url.startsWith('/')) return bad('Bad request target')
  const question = url.indexOf('?')
  const rawPath = question === -1 ? url : url.slice(0, question)
  const query = question === -1 ? '' : url.slice(question + 1)
  if (!RAW_PATH.test(rawPath) || rawPath.includes('\\') || rawPath.includes('#')) return bad('Bad request path')
  let pathname: string
  try {
    pathname = decodeURIComponent(rawPath)
  } catch {
    return bad('Bad percent-encoding in the path')
  }
  if (hasBadCharacter(pathname)) return bad('Bad characters in the path')
  const segments = pathname === '/' ? [] : pathname.slice(1).split('/')
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!
    if (segment === '..') return { ok: false, status: 403, reason: 'Forbidden' }
    if (segment === '.' || (segment === '' && i < segments.length - 1)) return bad('Bad request path')
  }
  let params: URLSearchParams
  try {
    params = new URLSearchParams(query)
  } catch {
    return bad('Bad query')
  }
  return { ok: true, pathname, segments, params }
}
