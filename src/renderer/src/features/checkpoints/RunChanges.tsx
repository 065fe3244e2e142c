/**
 * A finished run's total: "5 files changed in this run", from its first changing call's `before`
 * to its last one's `after` (checkpoints.changes), the Diff dialog over that span, and "Undo this run".
 */
import { useEffect, useMemo, useState } from 'react'
import { getDeskclawApi } from '../../bridge'
import { useT } from '../../i18n'
import { selectChatPath, useChatStore } from '../../stores'
import { DiffDialog } from './DiffDialog'
import { isStagedCopy } from './staged-copy'
import { UndoDialog } from './UndoDialog'
import './checkpoints.css'

/** `anchor`: the message (or RUN_END_ANCHOR) this sits under; shown only under the run's answer, once. */
export function RunChanges({ runId, anchor }: { runId: string | null; anchor: string }) {
  const t = useT()
  const isAnchor = useChatStore((s) => runId !== null && selectChatPath(s)?.answerAnchors[runId] === anchor)
  const running = useChatStore((s) => s.snapshot?.runs.find((run) => run.id === runId)?.status === 'running')
  // As a string, so streaming output elsewhere in the chat neither re-renders this nor asks main again.
  const spanKey = useChatStore((s) => {
    const changing = (s.snapshot?.toolCalls ?? []).filter((call) => call.runId === runId && call.changes && call.changes.files > 0 && !isStagedCopy(call.changes.workspace, runId))
    const first = changing[0]
    const last = changing[changing.length - 1]
    return first?.changes && last?.changes ? `${first.conversationId} ${first.changes.before} ${last.changes.after}` : ''
  })
  const span = useMemo(() => {
    if (!spanKey) return null
    const [conversationId, before, after] = spanKey.split(' ') as [string, string, string]
    return { conversationId, before, after }
  }, [spanKey])
  const [files, setFiles] = useState<number | null>(null)
  const [open, setOpen] = useState<'diff' | 'undo' | null>(null)
  useEffect(() => {
    if (!span || running || !isAnchor) return
    let live = true
    void getDeskclawApi()
      .invoke('checkpoints.changes', span)
      .then((result) => {
        if (live && result.ok) setFiles(result.data.length)
      })
    return () => {
      live = false
    }
  }, [span, running, isAnchor])
  if (!span || running || !isAnchor || runId === null || files === null) return null
  return (
    <div className="run-changes" data-testid="run-changes">
      {files > 0 && (
        <button type="button" className="changes-chip" data-testid="run-changes-total" title={t('checkpoints.runTotalTitle')} onClick={() => setOpen('diff')}>
          {t.count('checkpoints.runTotal', files)}
        </button>
      )}
      <button type="button" className="btn btn-small" data-testid="undo-run" onClick={() => setOpen('undo')}>
        {t('checkpoints.undoRun')}
      </button>
      {open === 'diff' && <DiffDialog source={{ kind: 'checkpoints', ...span }} title={t('checkpoints.diffTitle')} onClose={() => setOpen(null)} />}
      {open === 'undo' && <UndoDialog target={{ kind: 'run', runId }} onClose={() => setOpen(null)} />}
    </div>
  )
}
