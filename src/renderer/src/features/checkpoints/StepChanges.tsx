/**
 * Under a finished tool call that changed files: "3 files changed +12 −4" opens the Diff dialog
 * (click, Enter or Space), and "Undo this step" opens the undo preview (docs/checkpoints.md). A step
 * that stands undone (undone-steps.ts, also after a reload) says so and offers Redo instead.
 */
import { useState } from 'react'
import type { ToolCallRecord } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { DiffDialog } from './DiffDialog'
import { isStagedCopy } from './staged-copy'
import { UndoDialog } from './UndoDialog'
import { undoneStepsChanged, useUndoneStep } from './undone-steps'
import './checkpoints.css'

export function StepChanges({ call }: { call: Pick<ToolCallRecord, 'id' | 'runId' | 'conversationId' | 'status' | 'changes' | 'summary'> }) {
  const t = useT()
  const [open, setOpen] = useState<'diff' | 'undo' | 'redo' | null>(null)
  // The undo Redo takes back, fixed when the dialog opens (the card's state changes under it).
  const [redoOf, setRedoOf] = useState<string | null>(null)
  const undone = useUndoneStep(call.conversationId, call.id)
  const changes = call.changes
  if (call.status !== 'completed' || !changes || changes.files === 0 || isStagedCopy(changes.workspace, call.runId)) return null
  return (
    <div className="step-changes" data-testid="step-changes">
      <button type="button" className="changes-chip" data-testid="changes-chip" title={t('checkpoints.chipTitle')} onClick={() => setOpen('diff')}>
        <span>{t.count('checkpoints.chip', changes.files)}</span>
        <span className="diff-added">+{changes.added}</span>
        <span className="diff-removed">−{changes.removed}</span>
      </button>
      {undone ? (
        <>
          <span className="step-undone" data-testid="step-undone">
            {t('checkpoints.undone')}
          </span>
          <button
            type="button"
            className="btn btn-small"
            data-testid="redo-step"
            onClick={() => {
              setRedoOf(undone.undoId)
              setOpen('redo')
            }}
          >
            {t('checkpoints.undo.redo')}
          </button>
        </>
      ) : (
        <button type="button" className="btn btn-small" data-testid="undo-step" onClick={() => setOpen('undo')}>
          {t('checkpoints.undoStep')}
        </button>
      )}
      {open === 'diff' && (
        <DiffDialog
          source={{ kind: 'checkpoints', conversationId: call.conversationId, before: changes.before, after: changes.after }}
          title={call.summary ? `${t('checkpoints.diffTitle')} · ${call.summary}` : t('checkpoints.diffTitle')}
          onClose={() => setOpen(null)}
        />
      )}
      {(open === 'undo' || (open === 'redo' && redoOf)) && (
        <UndoDialog
          target={open === 'redo' && redoOf ? { kind: 'redo', undoId: redoOf } : { kind: 'call', runId: call.runId, callId: call.id }}
          onChanged={() => undoneStepsChanged(call.conversationId)}
          onClose={() => setOpen(null)}
        />
      )}
    </div>
  )
}
