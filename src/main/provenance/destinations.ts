/**
 * The destinations the user named in their own messages (docs/risk.md, "Provenance"): hosts (bare,
 * or in a URL they wrote), and any other destination — a path, a chat, a server, a port — written
 * out in their words. A URL counts as named when its host was; everything else when its text was.
 */

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'`)\]]+/gi
const HOST_IN_TEXT = /\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}\b/gi

export interface NamedDestinations {
  add(text: string): void
  has(destination: string): boolean
}

/** The host of a URL, lower case, or null when it is not one. */
export function hostOf(destination: string): string | null {
  try {
    const url = new URL(destination)
    return url.hostname ? url.hostname.toLowerCase().replace(/^\[|\]$/g, '') : null
  } catch {
    return null
  }
}

export function namedDestinations(): NamedDestinations {
  const hosts = new Set<string>()
  const texts: string[] = []
  let size = 0
  return {
    add(text) {
      for (const match of text.matchAll(URL_IN_TEXT)) {
        const host = hostOf(match[0])
        if (host) hosts.add(host)
      }
      for (const match of text.matchAll(HOST_IN_TEXT)) hosts.add(match[0].toLowerCase())
      // What the user wrote, for paths and names; bounded like the rest of the tracker.
      texts.push(text.toLowerCase())
      size += text.length
      while (size > 1_000_000 && texts.length > 1) size -= texts.shift()!.length
    },
    has(destination) {
      const host = hostOf(destination)
      if (host) return hosts.has(host)
      const wanted = destination.trim().toLowerCase().replace(/^\.\//, '')
      if (wanted.length < 3) return false
      return hosts.has(wanted) || texts.some((text) => text.includes(wanted))
    }
  }
}
