import type { Settings } from '../../shared'

/**
 * One service's part in the app's life (docs/architecture.md, "Adding a service"). DeskclawApp
 * loops over the registered services, so a new service is one registration, not a new branch in
 * every lifecycle method. It lives in a room of its own, below every room that implements it, so a
 * capability room (desktop, devices, checkpoints…) never imports the composition root.
 */
export interface AppService {
  /** For log lines when a hook fails. */
  readonly name: string
  /** After every service is built. Slow work (probing a sandbox) goes on in the background. */
  started?(): void | Promise<void>
  /** After the user changed settings; `patch` holds only what changed. */
  settingsChanged?(next: Settings, patch: Partial<Settings>): void | Promise<void>
  /** A conversation was deleted: drop what belongs to it (a sandbox container, grants, serial sessions). */
  conversationClosed?(conversationId: string): void | Promise<void>
  /** The app is closing; called in the reverse order of registration. */
  shutdown?(): void | Promise<void>
}

/** True when the patch changes any of `keys`. */
export function changes(patch: Partial<Settings>, ...keys: Array<keyof Settings>): boolean {
  return keys.some((key) => patch[key] !== undefined)
}
