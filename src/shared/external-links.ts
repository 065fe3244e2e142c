/**
 * Links written by the model leave the app only after the user has seen the full address and said
 * yes (docs/architecture.md, "Security of the front doors"). One decision for every front door: the
 * renderer's confirm dialog (web host) and the main process's native one (Electron) both use it.
 */

/** The only schemes a link may open: the web and e-mail. Never file:, javascript:, custom app schemes. */
export const EXTERNAL_LINK_SCHEMES: readonly string[] = ['http:', 'https:', 'mailto:']

export type ExternalLinkDecision =
  | {
      allowed: true
      /** What gets opened: the parsed, canonical URL (so what was shown is exactly what opens). */
      url: string
      /** The full URL to show the user, never shortened (same as `url`; hosts in punycode). */
      display: string
      /** Where it goes: the host for web links, the address for mail links. */
      site: string
    }
  | {
      allowed: false
      /** The raw link text, for a tooltip ('' when there was none). */
      display: string
      reason: 'empty' | 'unparseable' | 'scheme'
    }

/** Whether a link may be opened outside the app, and what to show the user first. */
export function externalLinkDecision(href: string | null | undefined): ExternalLinkDecision {
  const raw = (href ?? '').trim()
  if (!raw) return { allowed: false, display: '', reason: 'empty' }
  let url: URL
  try {
    // No base: relative links ("#top", "/etc/passwd", "notes.md") are not addresses on the web.
    url = new URL(raw)
  } catch {
    return { allowed: false, display: raw, reason: 'unparseable' }
  }
  if (!EXTERNAL_LINK_SCHEMES.includes(url.protocol)) return { allowed: false, display: raw, reason: 'scheme' }
  if (url.protocol === 'mailto:') {
    const address = decodeSafely(url.pathname)
    if (!address) return { allowed: false, display: raw, reason: 'unparseable' }
    return { allowed: true, url: url.href, display: url.href, site: address }
  }
  if (!url.hostname) return { allowed: false, display: raw, reason: 'unparseable' }
  return { allowed: true, url: url.href, display: url.href, site: url.host }
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text).trim()
  } catch {
    return text.trim()
  }
}
