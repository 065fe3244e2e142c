/**
 * Where the windows load the UI from: app:// in production, electron-vite's dev server under
 * `npm run dev`. ELECTRON_RENDERER_URL is obeyed only while developing (the app is not packaged)
 * and only for an http(s) URL on a loopback host: an environment variable must never point a
 * packaged app, with its bridge, at a page on the network.
 */
import { appPageUrl } from './app-protocol'

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

export interface RendererUrlRule {
  /** The dev server's URL when it is obeyed, else null (the UI comes from app://). */
  devServerUrl: string | null
  /** Why ELECTRON_RENDERER_URL was ignored, for a console warning; null when there is nothing to say. */
  warning: string | null
}

export function rendererUrlRule({ isPackaged, env }: { isPackaged: boolean; env: NodeJS.ProcessEnv }): RendererUrlRule {
  const raw = env.ELECTRON_RENDERER_URL?.trim()
  if (!raw) return { devServerUrl: null, warning: null }
  const ignored = (why: string): RendererUrlRule => ({
    devServerUrl: null,
    warning: `ELECTRON_RENDERER_URL is ignored (${why}); the UI is served from app://.`
  })
  if (isPackaged) return ignored('a packaged app only shows its own pages')
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return ignored('not a URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return ignored('only http(s) dev servers')
  if (url.username || url.password) return ignored('no credentials in the URL')
  if (!LOOPBACK_HOSTS.has(url.hostname.toLowerCase())) return ignored(`${url.hostname} is not a loopback host`)
  return { devServerUrl: url.href, warning: null }
}

/** A renderer entry's URL ('index.html', 'palette.html'): on the dev server when there is one, else on app://. */
export function rendererPageUrl(page: string, devServerUrl: string | null | undefined): string {
  return devServerUrl ? new URL(page, devServerUrl).href : appPageUrl(page)
}
