import { REDACTED, redactSecrets } from '../../secrets'

/**
 * Headers whose values are credentials (docs/tools.md, http_request): by name (Authorization,
 * Cookie, X-Api-Key, anything with token, secret, key, password, session, auth or signature in
 * it) or by value (`Bearer …`, `Basic …`). Their values never reach the store, the timeline or an
 * approval in clear; the request itself still sends them.
 */
const SECRET_NAME = /(authorization|cookie|token|secret|passw|api[-_]?key|apikey|access[-_]?key|session|auth|signature|credential|private)/i
const SECRET_VALUE = /^\s*(bearer|basic|token|digest|negotiate|aws4-hmac-sha256)\s+\S/i

export function isSecretHeader(name: string, value: string): boolean {
  return SECRET_NAME.test(name) || SECRET_VALUE.test(value)
}

/** The secret values among headers (for redacting them wherever else they turn up: the URL, the body, the answer). */
export function secretValues(headers: Record<string, string>): string[] {
  return Object.entries(headers).flatMap(([name, value]) => {
    if (!isSecretHeader(name, value)) return []
    const scheme = SECRET_VALUE.exec(value)
    return scheme ? [value, value.slice(scheme[0].length - 1).trim()] : [value]
  })
}

/** Headers as they may be shown: each secret value replaced by [redacted], the scheme (`Bearer`) kept. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => {
      if (!isSecretHeader(name, value)) return [name, value]
      const scheme = /^\s*([A-Za-z0-9-]+)\s+\S/.exec(value)
      return [name, scheme && SECRET_VALUE.test(value) ? `${scheme[1]} ${REDACTED}` : REDACTED]
    })
  )
}

/** Text (a URL, a body, a response) with every secret header value redacted, in any encoding redactSecrets knows. */
export function redactText(text: string, headers: Record<string, string>): string {
  return redactSecrets(text, secretValues(headers))
}
