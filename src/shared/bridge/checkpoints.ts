/**
 * Checkpoints and undo over the bridge (docs/checkpoints.md): what a step or a run changed, one
 * file's two sides for the diff view, and undo / redo as preview → apply.
 */
import { z } from 'zod'
import { ChangedFileSchema } from '../checkpoints'
import { defineCall } from './define-call'

/** A checkpoint id: a commit of the shadow repository. */
const CheckpointIdSchema = z.string().regex(/^[0-9a-f]{40}$/, 'a checkpoint id')

export const UndoTargetSchema = z.discriminatedUnion('kind', [
  /** One tool call's changes. */
  z.object({ kind: z.literal('call'), runId: z.string().min(1), callId: z.string().min(1) }),
  /** Everything one run changed. */
  z.object({ kind: z.literal('run'), runId: z.string().min(1) }),
  /** Back to before this run began: this run and every later one in the conversation ("Restore to before this message"). */
  z.object({ kind: z.literal('since-run'), conversationId: z.string().min(1), runId: z.string().min(1) }),
  /** An undo taken back. */
  z.object({ kind: z.literal('redo'), undoId: CheckpointIdSchema })
])
export type UndoTargetInput = z.infer<typeof UndoTargetSchema>

export const UndoPreviewSchema = z.object({
  planId: z.string(),
  workspace: z.string(),
  files: z.array(ChangedFileSchema),
  conflicts: z.array(z.object({ path: z.string(), ours: ChangedFileSchema, theirs: ChangedFileSchema })),
  notRecorded: z.array(z.string())
})
export type UndoPreviewView = z.infer<typeof UndoPreviewSchema>

export const UndoOutcomeSchema = z.object({
  undoId: z.string(),
  restored: z.array(z.string()),
  kept: z.array(z.string()),
  failed: z.array(z.object({ path: z.string(), reason: z.string() }))
})
export type UndoOutcomeView = z.infer<typeof UndoOutcomeSchema>

/** One side of a file in the diff view: its text, or for binaries and large files only its size (and an image's bytes). */
export const FileSideSchema = z.object({
  exists: z.boolean(),
  bytes: z.number(),
  /** UTF-8 text, when the file is text and at most the view's limit. */
  text: z.string().optional(),
  /** An image's media type and base64 bytes (PNG, JPEG, GIF, WebP up to the limit), for a preview. */
  image: z.object({ mediaType: z.string(), base64: z.string() }).optional()
})
export type FileSide = z.infer<typeof FileSideSchema>

export const checkpointCalls = {
  /** The files that differ between two checkpoints of a conversation's workspace. */
  'checkpoints.changes': defineCall(
    z.object({ conversationId: z.string().min(1), before: CheckpointIdSchema, after: CheckpointIdSchema }),
    z.array(ChangedFileSchema)
  ),
  /** Both sides of one file, for the diff view. */
  'checkpoints.fileDiff': defineCall(
    z.object({ conversationId: z.string().min(1), before: CheckpointIdSchema, after: CheckpointIdSchema, path: z.string().min(1).max(4096) }),
    z.object({ before: FileSideSchema, after: FileSideSchema })
  ),
  /** The conversation's steps that stand undone (not redone since): their cards offer Redo. */
  'undo.undone': defineCall(
    z.object({ conversationId: z.string().min(1) }),
    z.array(z.object({ runId: z.string(), callId: z.string(), undoId: z.string() }))
  ),
  /** Exactly what an undo would do, conflicts included; nothing changes yet. */
  'undo.preview': defineCall(UndoTargetSchema, UndoPreviewSchema),
  /** Carries out a preview; conflicting files follow `choices` (absent: keep theirs). */
  'undo.apply': defineCall(
    z.object({ planId: z.string().min(1), choices: z.record(z.string(), z.enum(['keep-theirs', 'take-checkpoint'])).optional() }),
    UndoOutcomeSchema
  ),
  /** Apply-at-end runs whose copies wait for review (also after a restart). */
  'staged.pending': defineCall(z.object({}), z.array(z.object({ runId: z.string(), conversationId: z.string(), workspace: z.string() }))),
  /** A staged run's one diff against the real workspace, and which real files changed since it began. */
  'staged.review': defineCall(
    z.object({ runId: z.string().min(1) }),
    z.object({ runId: z.string(), conversationId: z.string(), workspace: z.string(), files: z.array(ChangedFileSchema), conflicts: z.array(z.string()) })
  ),
  /** Both sides of one file of a staged run's diff (the real workspace when the run began, the copy now), for the review's diff view. */
  'staged.fileDiff': defineCall(
    z.object({ runId: z.string().min(1), path: z.string().min(1).max(4096) }),
    z.object({ before: FileSideSchema, after: FileSideSchema })
  ),
  /** Writes the run's files (all, or `paths`) into the real workspace and removes the copy. */
  'staged.apply': defineCall(
    z.object({
      runId: z.string().min(1),
      paths: z.array(z.string().min(1)).optional(),
      choices: z.record(z.string(), z.enum(['keep-theirs', 'take-checkpoint'])).optional()
    }),
    z.object({ applied: z.array(z.string()), kept: z.array(z.string()), failed: z.array(z.object({ path: z.string(), reason: z.string() })) })
  ),
  /** Removes the copy; the real workspace never saw the run. */
  'staged.discard': defineCall(z.object({ runId: z.string().min(1) }), z.object({}))
} as const
