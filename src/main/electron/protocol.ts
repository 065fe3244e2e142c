/**
 * The app:// protocol (policy/app-protocol.ts): the scheme is registered as privileged before
 * 'ready', and the handler that serves out/renderer with the Electron CSP once ready.
 */
import { protocol } from 'electron'
import { contentSecurityPolicy } from '../bridge/csp'
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppRequestHandler } from './policy/app-protocol'
import { rendererDir } from './renderer-source'

/** Must run before the app is ready (Electron reads privileged schemes once). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES])
}

/** Serves app://deskclaw/… from out/renderer; call once the app is ready, before any window loads. */
export function setupAppProtocol(): void {
  protocol.handle(APP_SCHEME, createAppRequestHandler({ rendererDir, csp: contentSecurityPolicy({ kind: 'electron' }) }))
}
