/**
 * "Restore to before this message" in a question's actions (docs/checkpoints.md, "Undo"): undoes
 * the run that answered it and every later one (undo.preview { kind: 'since-run' }), with the same
 * preview, conflicts and redo as any undo. Shown only when one of those runs changed files.
 */
import { useState } from 'react'
import { useT } from '../../i18n'
import { useChatStore } from '../../stores'
import { Icon, type IconProps } from '../common'
import { isStagedCopy } from './staged-copy'
import { UndoDialog } from './UndoDialog'

const RestoreIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5" />
  </Icon>
)

export function RestoreBeforeMessage({ messageId }: { messageId: string }) {
  const t = useT()
  const [open, setOpen] = useState(false)
  // The run this question started, when it or a later run of the conversation changed files (a string: a stable selection).
  const target = useChatStore((s) => {
    const snapshot = s.snapshot
    if (!snapshot) return ''
    const run = snapshot.runs.find((candidate) => candidate.answersMessageId === messageId)
    if (!run || snapshot.runs.some((candidate) => candidate.status === 'running')) return ''
    const later = new Set(snapshot.runs.filter((candidate) => candidate.startedAt >= run.startedAt).map((candidate) => candidate.id))
    const changed = snapshot.toolCalls.some((call) => later.has(call.runId) && call.changes !== undefined && call.changes.files > 0 && !isStagedCopy(call.changes.workspace, call.runId))
    return changed ? `${snapshot.conversationId} ${run.id}` : ''
  })
  if (!target) return null
  const [conversationId, runId] = target.split(' ') as [string, string]
  const label = t('checkpoints.restoreBefore')
  return (
    <>
      <button type="button" className="message-action" aria-label={label} title={label} data-testid="restore-before-message" onClick={() => setOpen(true)}>
        <RestoreIcon size={14} />
      </button>
      {open && <UndoDialog target={{ kind: 'since-run', conversationId, runId }} onClose={() => setOpen(false)} />}
    </>
  )
}
