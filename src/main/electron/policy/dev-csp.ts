/**
 * In development the pages come from electron-vite's dev server, which sends no CSP; the shell
 * adds contentSecurityPolicy({ kind: 'electron-dev' }) to its responses (webRequest.onHeadersReceived),
 * so `npm run dev` runs under a policy too (the React refresh preamble is an inline script, which
 * that policy allows). Other responses are left alone.
 */
import { contentSecurityPolicy } from '../../bridge/csp'
import { isAppUrl } from '../../bridge/sender-policy'

export type ResponseHeaders = Record<string, string | string[]>

/** The headers with every Content-Security-Policy (any case) replaced by `csp`. */
export function withCspHeader(headers: ResponseHeaders | undefined, csp: string): ResponseHeaders {
  const result: ResponseHeaders = {}
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') result[name] = value
  }
  result['Content-Security-Policy'] = [csp]
  return result
}

/** The headers a dev server response should carry: with the dev CSP when it comes from the dev server, else null (unchanged). */
export function devServerResponseHeaders(
  responseUrl: string,
  headers: ResponseHeaders | undefined,
  devServerUrl: string
): ResponseHeaders | null {
  // The app origin is irrelevant here: only the dev server's responses get the dev policy.
  if (!isAppUrl(responseUrl, { appOrigin: devServerUrl })) return null
  return withCspHeader(headers, contentSecurityPolicy({ kind: 'electron-dev', devServerUrl }))
}
