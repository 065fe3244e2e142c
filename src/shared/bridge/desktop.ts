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

/** A chat app the send-text task knows (docs/desktop.md, "Sending messages"), with the user's settings for it. */
export const ChatAppInfoSchema = z.object({
  id: z.string(),
  name: z.object({ en: z.string(), 'zh-CN': z.string() }),
  /** What the profile was written against: in English and Chinese (shipped profiles), or as the user's own profile says it. */
  testedWith: z.union([z.string(), z.object({ en: z.string(), 'zh-CN': z.string() })]).optional(),
  /** Whether the profile has settings for this computer's OS. */
  supported: z.boolean(),
  /** Shipped with DeskClaw, or the user's own file (which replaces a shipped one with the same id). */
  source: z.enum(['builtin', 'user', 'file']),
  enabled: z.boolean(),
  allowlist: z.array(z.string())
})
export type ChatAppInfo = z.infer<typeof ChatAppInfoSchema>

export const desktopCalls = {
  /** The chat app profiles and whether each is enabled; files that could not be read, with why. Change them with settings.update({ chatApps }). */
  'desktop.apps': defineCall(
    z.object({}),
    z.object({ apps: z.array(ChatAppInfoSchema), problems: z.array(z.object({ file: z.string(), error: z.string() })) })
  ),
  'desktop.status': defineCall(z.object({}), DesktopControlSchema),
  /** Stops desktop control now: cancels the controlling run and releases every held key and button. */
  'desktop.stop': defineCall(z.object({}), z.object({ stopped: z.boolean() }))
} as const
