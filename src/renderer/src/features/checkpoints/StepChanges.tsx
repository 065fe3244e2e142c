/**
 * Under a finished tool call that changed files: "3 files changed +12 −4" opens the Diff dialog
 * (click, Enter or Space), and "Undo this step" opens the undo preview (docs/checkpoints.md).
 */
import { useState } from 'react'
import type { ToolCallRecord } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { DiffDialog } from './DiffDialog'
import { isStagedCopy } from './staged-copy'
import { UndoDialog } from './UndoDialog'
import './checkpoints.css'

export function StepChanges({ call }: { call: Pick<ToolCallRecord, 'id' | 'runId' | 'conversationId' | 'status' | 'changes' | 'summary'> }) {
  const t = useT()
  const [open, setOpen] = useState<'diff' | 'undo' | null>(null)
  const changes = call.changes
  if (call.status !== 'completed' || !changes || changes.files === 0 || isStagedCopy(changes.workspace, call.runId)) return null
  return (
    <div className="step-changes" data-testid="step-changes">
      <button type="button" className="changes-chip" data-testid="changes-chip" title={t('checkpoints.chipTitle')} onClick={() => setOpen('diff')}>
        <span>{t.count('checkpoints.chip', changes.files)}</span>
        <span className="diff-added">+{changes.added}</span>
        <span className="diff-removed">−{changes.removed}</span>
      </button>
      <button type="button" className="btn btn-small" data-testid="undo-step" onClick={() => setOpen('undo')}>
        {t('checkpoints.undoStep')}
      </button>
      {open === 'diff' && (
        <DiffDialog
          source={{ kind: 'checkpoints', conversationId: call.conversationId, before: changes.before, after: changes.after }}
          title={call.summary ? `${t('checkpoints.diffTitle')} · ${call.summary}` : t('checkpoints.diffTitle')}
          onClose={() => setOpen(null)}
        />
      )}
      {open === 'undo' && <UndoDialog target={{ kind: 'call', runId: call.runId, callId: call.id }} onClose={() => setOpen(null)} />}
    </div>
  )
}
