/**
 * The Content-Security-Policy of each build (docs/architecture.md, "Security of the front doors"):
 * one place, so a test pins every directive. The renderer's HTML carries none; the web host sends
 * its policy as a header, and the Electron shell attaches its own to app:// responses (and, in
 * development, to the dev server's).
 */
export type CspBuild =
  /** The packaged or previewed app: pages from app://, the bridge over IPC. */
  | { kind: 'electron' }
  /** `npm run dev`: pages from electron-vite's dev server, whose React refresh preamble is an inline script. */
  | { kind: 'electron-dev'; devServerUrl: string }
  /** `deskclaw web`: pages and the bridge's WebSocket from the same loopback origin. */
  | { kind: 'web'; origin: string }

const COMMON: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
  'frame-src': ["'none'"],
  'worker-src': ["'self'"]
}

export function contentSecurityPolicy(build: CspBuild): string {
  const directives: Record<string, string[]> = Object.fromEntries(Object.entries(COMMON).map(([name, values]) => [name, [...values]]))
  if (build.kind === 'electron-dev') {
    const dev = new URL(build.devServerUrl)
    directives['script-src']!.push("'unsafe-inline'", dev.origin)
    directives['connect-src']!.push(dev.origin, `ws://${dev.host}`)
  } else if (build.kind === 'web') {
    const origin = new URL(build.origin)
    directives['connect-src']!.push(`ws://${origin.host}`)
  }
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ')
}
