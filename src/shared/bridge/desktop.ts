/** Desktop control over the bridge (docs/desktop.md): who holds the keyboard and mouse, and the Stop that releases them. */
import { z } from 'zod'
import { defineCall } from './define-call'

export const DesktopControlSchema = z.object({
  /** The run controlling the keyboard and mouse, or null. */
  holder: z.object({ runId: z.string(), conversationId: z.string(), since: z.number() }).nullable(),
  /** The global shortcut that stops it (an Electron accelerator), as the banner says it. */
  stopShortcut: z.string(),
  /** Whether the shortcut is registered (only in the desktop app, and only if the OS allowed it). */
  shortcutActive: z.boolean()
})
export type DesktopControl = z.infer<typeof DesktopControlSchema>

export const desktopCalls = {
  'desktop.status': defineCall(z.object({}), DesktopControlSchema),
  /** Stops desktop control now: cancels the controlling run and releases every held key and button. */
  'desktop.stop': defineCall(z.object({}), z.object({ stopped: z.boolean() }))
} as const
