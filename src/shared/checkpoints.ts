/**
 * What a tool call changed in the workspace (docs/checkpoints.md): the checkpoints before and after
 * it in the shadow repository and a summary the timeline shows as "3 files changed".
 */
import { z } from 'zod'

export const StepChangesSchema = z.object({
  /** The workspace the call changed (its real path): undo acts there, whatever the settings say later. */
  workspace: z.string(),
  /** Checkpoint ids (commits of the shadow repository). */
  before: z.string(),
  after: z.string(),
  files: z.number().int().min(0),
  added: z.number().int().min(0),
  removed: z.number().int().min(0),
  /** Files the checkpoint could not record (too large, unreadable): they cannot be undone. */
  skipped: z.array(z.object({ path: z.string(), reason: z.enum(['too-large', 'unreadable']), bytes: z.number().optional() })).optional()
})
export type StepChanges = z.infer<typeof StepChangesSchema>

export const ChangedFileSchema = z.object({
  path: z.string(),
  kind: z.enum(['added', 'modified', 'deleted', 'type-changed']),
  beforeBytes: z.number(),
  afterBytes: z.number(),
  binary: z.boolean(),
  added: z.number(),
  removed: z.number()
})
export type ChangedFile = z.infer<typeof ChangedFileSchema>
