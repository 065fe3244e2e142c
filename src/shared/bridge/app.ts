/** The app itself over the bridge: app.info (version, which transport, the workspace). */
import { z } from 'zod'
import { defineCall } from './define-call'

export const appCalls = {
  /** Brings the main window forward on a conversation (the palette's "open in DeskClaw"): a show_conversation event. */
  'app.showConversation': defineCall(z.object({ conversationId: z.string().min(1).max(100) }), z.object({ shown: z.boolean() })),
  'app.info': defineCall(
    z.object({}),
    z.object({ version: z.string(), transport: z.enum(['ipc', 'websocket']), workspace: z.string() })
  )
} as const
