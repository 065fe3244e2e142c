/** The app itself over the bridge: app.info (version, which transport, the workspace). */
import { z } from 'zod'
import { defineCall } from './define-call'

export const appCalls = {
  'app.info': defineCall(
    z.object({}),
    z.object({ version: z.string(), transport: z.enum(['ipc', 'websocket']), workspace: z.string() })
  )
} as const
