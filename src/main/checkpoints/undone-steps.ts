/**
 * Which steps of a conversation stand undone (docs/checkpoints.md, "Undo"), read from the audit log
 * every undo and redo writes: a step's card shows "Undone" and Redo instead of "Undo this step",
 * also after a reload, and a second undo of the same step is not offered.
 */
import type { AuditRecord } from '../store'

/** A step undone and not redone since: its call, and the undo Redo takes back. */
export interface UndoneStep {
  runId: string
  callId: string
  undoId: string
}

interface UndoAuditData {
  target?: { kind?: string; runId?: string; callId?: string; undoId?: string }
  after?: string
}

/** The conversation's steps that stand undone, from its undo audit entries (oldest first). */
export function undoneSteps(audit: readonly AuditRecord[], conversationId: string): UndoneStep[] {
  const undone = new Map<string, UndoneStep>()
  for (const entry of audit) {
    if (entry.kind !== 'checkpoint.undo') continue
    const data = entry.data as UndoAuditData | null
    const target = data?.target
    if (!target || !data?.after) continue
    if (target.kind === 'redo') {
      for (const [callId, step] of undone) if (step.undoId === target.undoId) undone.delete(callId)
      continue
    }
    if (entry.conversationId !== conversationId || target.kind !== 'call' || !target.runId || !target.callId) continue
    undone.set(target.callId, { runId: target.runId, callId: target.callId, undoId: data.after })
  }
  return [...undone.values()]
}
