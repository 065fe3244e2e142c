/**
 * Where the windows' pages come from, decided once at start: app://deskclaw (the files of
 * out/renderer) in production, electron-vite's dev server under `npm run dev` — and only then
 * (policy/renderer-url.ts). Every window, the IPC sender check, the navigation and permission
 * checks use these same values.
 */
import { join } from 'node:path'
import { app } from 'electron'
import type { TrustedOrigins } from '../bridge'
import { APP_ORIGIN } from './policy/app-protocol'
import { rendererPageUrl as pageUrl, rendererUrlRule } from './policy/renderer-url'

/** The built renderer (out/renderer), served as app://deskclaw/. */
export const rendererDir = join(__dirname, '../renderer')
/** The built preload every window uses (out/preload/index.js). */
export const preloadPath = join(__dirname, '../preload/index.js')

const rule = rendererUrlRule({ isPackaged: app.isPackaged, env: process.env })
if (rule.warning) console.warn(`[deskclaw] ${rule.warning}`)

/** electron-vite's dev server, when it is obeyed; undefined in production. */
export const devServerUrl: string | undefined = rule.devServerUrl ?? undefined

/** The app's own origins: for the IPC sender check, navigation and permissions. */
export const trustedOrigins: TrustedOrigins = { appOrigin: APP_ORIGIN, devServerUrl }

/** The URL a window loads for a renderer entry: rendererPageUrl('index.html'), rendererPageUrl('palette.html'). */
export function rendererPageUrl(page: string): string {
  return pageUrl(page, devServerUrl)
}
