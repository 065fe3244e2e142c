/**
 * What a DeskClaw window may do with URLs (Electron security checklist #13, #14, #5): navigate only
 * to the app's own pages, never open a window, and grant only one permission — writing to the
 * clipboard (the copy buttons) — to the app's own top frame. Pure so every rule is tested.
 */
import { isAppUrl, type TrustedOrigins } from '../../bridge/sender-policy'

/** will-navigate and will-redirect: allowed only to the app's own pages (app://deskclaw, or the dev server in development). */
export function navigationAllowed(url: string, trusted: TrustedOrigins): boolean {
  return isAppUrl(url, trusted)
}

/** The only permission a page is ever granted. */
export const GRANTED_PERMISSION = 'clipboard-sanitized-write'

export interface PermissionRequestFacts {
  /** The URL (or origin) of the frame that asks. */
  requestingUrl: string | null | undefined
  isMainFrame: boolean
}

/** Permission requests and checks: 'clipboard-sanitized-write' for the app's own top frame; everything else denied. */
export function permissionAllowed(permission: string, request: PermissionRequestFacts, trusted: TrustedOrigins): boolean {
  return permission === GRANTED_PERMISSION && request.isMainFrame && isAppUrl(request.requestingUrl, trusted)
}
