/** Runs over the bridge: start one in a conversation (agent.send) and cancel it (agent.cancel). */
import { z } from 'zod'
import { MessageAttachmentsSchema } from '../message-attachments'
import { defineCall } from './define-call'

export const agentCalls = {
  'agent.send': defineCall(
    z.object({
      conversationId: z.string(),
      text: z.string().min(1).max(100_000),
      /** Images and text files sent with the text (docs/architecture.md, "Attachments in messages"). */
      attachments: MessageAttachmentsSchema.optional(),
      // Message versions (docs/architecture.md): at most one of the three below.
      /** The answer this question follows, as the chat shows it; absent: the end of the newest branch. */
      parentRunId: z.string().optional(),
      /** Ask this answer's question again: a new version of the answer (`text` is not used). */
      regenerate: z.object({ runId: z.string() }).optional(),
      /** `text` replaces this question: a new branch from where it was asked. */
      editOf: z.object({ messageId: z.string() }).optional(),
      /**
       * Work in a copy of the workspace; nothing in the real one changes until the run's diff is
       * reviewed and applied (docs/checkpoints.md, "Apply at the end"). Needs bubblewrap or Docker.
       */
      applyAtEnd: z.boolean().optional()
    }),
    z.object({
      runId: z.string(),
      /** Images of this message the model is only told about: it is configured as text-only. */
      unseenImages: z.number().int().optional(),
      /** The question the run answers (new, or the one regenerated) and the run it follows. */
      question: z.object({ id: z.string(), parentRunId: z.string().nullable() }).optional()
    })
  ),
  'agent.cancel': defineCall(z.object({ runId: z.string() }), z.object({ cancelled: z.boolean() }))
} as const
