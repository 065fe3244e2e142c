/** Session-wide security: the app never grants a web permission (camera, notifications, …). */
import { session } from 'electron'

/** Refuses every permission request; call once the app is ready. */
export function setupSecurity(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
}
