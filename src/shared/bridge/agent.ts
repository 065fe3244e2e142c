/** Runs over the bridge: start one in a conversation (agent.send) and cancel it (agent.cancel). */
import { z } from 'zod'
import { defineCall } from './define-call'

export const agentCalls = {
  'agent.send': defineCall(
    z.object({ conversationId: z.string(), text: z.string().min(1).max(100_000) }),
    z.object({ runId: z.string() })
  ),
  'agent.cancel': defineCall(z.object({ runId: z.string() }), z.object({ cancelled: z.boolean() }))
} as const
