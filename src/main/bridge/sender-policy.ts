export interface SenderFacts {
  /** 'webview' senders are never trusted. */
  senderType: string
  /** The sending frame's URL; null when the frame is gone. */
  frameUrl: string | null
  isTopFrame: boolean
}

export interface TrustedOrigins {
  /** The app's own origin, where the built renderer is served (app://deskclaw). */
  appOrigin: string
  /** electron-vite's dev server in development (already checked to be http(s) on loopback). */
  devServerUrl?: string
}

/**
 * Whether a URL is one of the app's own pages: on the app origin, or on the dev server's origin in
 * development. Parsed, never prefix-matched as strings; scheme, host and port must all match, and
 * no credentials. Node's URL gives custom schemes an opaque origin ('null'), so the parts are
 * compared one by one (hosts case-insensitively: Chromium lower-cases a standard scheme's host).
 */
export function isAppUrl(candidate: string | null | undefined, trusted: TrustedOrigins): boolean {
  const url = parse(candidate)
  if (!url || url.username || url.password) return false
  if (sameOrigin(url, parse(trusted.appOrigin))) return true
  return trusted.devServerUrl !== undefined && sameOrigin(url, parse(trusted.devServerUrl))
}

/**
 * Only our own renderer's top frame may call the bridge (Electron security checklist #17).
 * Pure so it is tested without Electron.
 */
export function isTrustedSender(facts: SenderFacts, trusted: TrustedOrigins): boolean {
  if (facts.senderType === 'webview' || !facts.isTopFrame || !facts.frameUrl) return false
  return isAppUrl(facts.frameUrl, trusted)
}

function parse(text: string | null | undefined): URL | null {
  if (!text) return null
  try {
    return new URL(text)
  } catch {
    return null
  }
}

function sameOrigin(url: URL, origin: URL | null): boolean {
  return (
    origin !== null &&
    url.protocol === origin.protocol &&
    url.hostname.toLowerCase() === origin.hostname.toLowerCase() &&
    url.port === origin.port &&
    url.hostname !== ''
  )
}
