import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import type { Readable } from 'node:stream'
import { errorMessage } from '../../../shared'
import { MAX_REDIRECTS, type WebToolServices } from './common'

export interface WebRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
}

export interface WebResponse {
  ok: true
  status: number
  statusText: string
  /** The URL that answered (after redirects). */
  url: string
  headers: Record<string, string>
  body: Buffer
  /** The body was longer than the limit and was cut there. */
  truncated: boolean
  /** Every URL asked, the first included. */
  hops: string[]
}

export interface WebFailure {
  ok: false
  kind: 'blocked' | 'tooManyRedirects' | 'timeout' | 'failed' | 'stopped'
  url: string
  reason: string
  hops: string[]
}

/** Headers that belong to one site: not carried to another origin by a redirect (as browsers do). */
const ORIGIN_BOUND = /^(authorization|cookie|proxy-authorization)$/i

/**
 * One request with its redirects followed by hand (docs/risk.md, "Network"): each hop is checked
 * by the URL guardian and connected to the very address it checked (the name stays in the Host
 * header and TLS's server name), so a DNS answer that changes between check and connection is
 * never used. The body is read up to the limit, decompressed bytes counted; the whole exchange has
 * one deadline.
 */
export async function sendRequest(services: WebToolServices, tool: string, request: WebRequest, signal: AbortSignal): Promise<WebResponse | WebFailure> {
  const { webMaxBytes, webTimeoutSec } = services.settings()
  const deadline = AbortSignal.timeout(webTimeoutSec * 1000)
  const both = AbortSignal.any([signal, deadline])
  const hops: string[] = []
  let current = { ...request, headers: { ...request.headers } }
  for (let hop = 0; ; hop++) {
    hops.push(current.url)
    if (hop > MAX_REDIRECTS) return { ok: false, kind: 'tooManyRedirects', url: current.url, reason: `more than ${MAX_REDIRECTS} redirects`, hops }
    const checked = await services.checkHop(tool, current.url, hop === 0)
    if (!checked.ok) return { ok: false, kind: 'blocked', url: current.url, reason: checked.message, hops }
    let response: IncomingMessage
    try {
      response = await open(current, checked.addresses?.length ? checked.addresses : [checked.address], both)
    } catch (error) {
      return failure(error, current.url, hops, signal, deadline)
    }
    const location = response.headers.location
    if (location && [301, 302, 303, 307, 308].includes(response.statusCode ?? 0)) {
      response.resume()
      let next: URL
      try {
        next = new URL(location, current.url)
      } catch {
        return { ok: false, kind: 'failed', url: current.url, reason: `the redirect to "${location}" is not a URL`, hops }
      }
      const keepMethod = response.statusCode === 307 || response.statusCode === 308 || current.method === 'GET' || current.method === 'HEAD'
      const sameOrigin = next.origin === new URL(current.url).origin
      const headers = Object.fromEntries(Object.entries(current.headers).filter(([name]) => sameOrigin || !ORIGIN_BOUND.test(name)))
      current = keepMethod ? { ...current, url: next.href, headers } : { method: 'GET', url: next.href, headers: withoutBodyHeaders(headers) }
      continue
    }
    try {
      const { body, truncated } = await readBody(response, webMaxBytes, both)
      const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]))
      return { ok: true, status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', url: current.url, headers, body, truncated, hops }
    } catch (error) {
      return failure(error, current.url, hops, signal, deadline)
    }
  }
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !/^content-(type|length|encoding)$/i.test(name)))
}

function failure(error: unknown, url: string, hops: string[], signal: AbortSignal, deadline: AbortSignal): WebFailure {
  if (signal.aborted) return { ok: false, kind: 'stopped', url, reason: 'stopped', hops }
  if (deadline.aborted) return { ok: false, kind: 'timeout', url, reason: 'timed out', hops }
  return { ok: false, kind: 'failed', url, reason: errorMessage(error), hops }
}

/**
 * Connects to the checked addresses and no other: the lookup the socket uses answers with them,
 * whatever the name (Node tries each in turn when there are several, IPv6 and IPv4).
 */
function open(request: WebRequest, addresses: Array<{ address: string; family: 4 | 6 }>, signal: AbortSignal): Promise<IncomingMessage> {
  const url = new URL(request.url)
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, addresses)
    else callback(null, addresses[0]!.address, addresses[0]!.family)
  }
  const make = url.protocol === 'https:' ? httpsRequest : httpRequest
  const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'DeskClaw', ...request.headers }
  if (request.body !== undefined && !Object.keys(headers).some((h) => /^content-length$/i.test(h))) headers['content-length'] = String(Buffer.byteLength(request.body))
  return new Promise((resolve, reject) => {
    const req = make(url, { method: request.method, headers, lookup: pinned, signal, agent: false }, resolve)
    req.on('error', reject)
    req.end(request.body)
  })
}

/** The body up to `max` bytes after decompression (a small gzip cannot become gigabytes here). */
async function readBody(response: IncomingMessage, max: number, signal: AbortSignal): Promise<{ body: Buffer; truncated: boolean }> {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase()
  let stream: Readable = response
  if (encoding === 'gzip' || encoding === 'x-gzip') stream = response.pipe(createGunzip())
  else if (encoding === 'deflate') stream = response.pipe(createInflate())
  else if (encoding === 'br') stream = response.pipe(createBrotliDecompress())
  const chunks: Buffer[] = []
  let size = 0
  let truncated = false
  const onAbort = () => stream.destroy(new Error('aborted'))
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    for await (const chunk of stream) {
      const piece = chunk as Buffer
      if (size + piece.length > max) {
        chunks.push(piece.subarray(0, max - size))
        size = max
        truncated = true
        break
      }
      chunks.push(piece)
      size += piece.length
    }
  } finally {
    signal.removeEventListener('abort', onAbort)
    response.destroy()
    if (stream !== response) stream.destroy()
  }
  if (signal.aborted) throw new Error('aborted')
  return { body: Buffer.concat(chunks), truncated }
}

/** The body as text, in the charset the response names (UTF-8 when it names none or one we cannot read). */
export function decodeBody(response: WebResponse): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(response.headers['content-type'] ?? '')?.[1]
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(response.body)
  } catch {
    return new TextDecoder('utf-8').decode(response.body)
  }
}
