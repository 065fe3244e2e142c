/**
 * A "site" is what a navigation is judged by (docs/risk.md, "Browser"): the scheme and host with
 * its port, so http://127.0.0.1:4000 and http://127.0.0.1:5000 are two sites. Only http and https
 * pages are opened; file:, data:, javascript: and the browser's own pages never are.
 */
export function siteOf(url: string): string | null {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? `${parsed.protocol}//${parsed.host}` : null
  } catch {
    return null
  }
}

/** Pages that are no site at all (a new tab, an error page) and need no question. */
export const isBlankPage = (url: string): boolean => url === 'about:blank' || url === ''
