/**
 * Undo and redo (docs/checkpoints.md, "Undo"): the preview lists exactly what will change per file
 * (restore, delete, recreate) and what was not recorded; conflicts are chosen per file (keep theirs
 * by default); Apply shows the outcome and offers Redo. A failed apply (preview expired, workspace
 * changed since) is said in words and the preview is shown again, made anew.
 */
import { useCallback, useEffect, useId, useState } from 'react'
import type { UndoOutcomeView, UndoPreviewView, UndoTargetInput } from '../../../../shared/bridge/checkpoints'
import { getDeskclawApi } from '../../bridge'
import { useT } from '../../i18n'
import { Dialog } from '../common'
import { FileCounts } from './FileList'

type Choice = 'keep-theirs' | 'take-checkpoint'
type Phase =
  | { state: 'loading' }
  | { state: 'preview'; preview: UndoPreviewView }
  | { state: 'applying'; preview: UndoPreviewView }
  | { state: 'done'; outcome: UndoOutcomeView }
  | { state: 'failed' }

export function UndoDialog({
  target: initial,
  onClose,
  onChanged
}: {
  target: UndoTargetInput
  onClose(): void
  /** An undo or redo was applied (the step cards read their state again). */
  onChanged?(): void
}) {
  const t = useT()
  const titleId = useId()
  const [target, setTarget] = useState(initial)
  const [phase, setPhase] = useState<Phase>({ state: 'loading' })
  const [error, setError] = useState<string | null>(null)
  const [choices, setChoices] = useState<Record<string, Choice>>({})

  const load = useCallback(
    async (which: UndoTargetInput) => {
      setPhase({ state: 'loading' })
      setChoices({})
      const result = await getDeskclawApi().invoke('undo.preview', which)
      if (result.ok) setPhase({ state: 'preview', preview: result.data })
      else {
        setError(t.error(result.error))
        setPhase({ state: 'failed' })
      }
    },
    [t]
  )
  useEffect(() => {
    void load(target)
  }, [load, target])

  const apply = async (preview: UndoPreviewView) => {
    setPhase({ state: 'applying', preview })
    setError(null)
    const result = await getDeskclawApi().invoke('undo.apply', { planId: preview.planId, choices })
    if (result.ok) {
      setPhase({ state: 'done', outcome: result.data })
      onChanged?.()
    } else {
      // Said in words; the plan is made again from the workspace as it is now.
      const text = t.error(result.error)
      await load(target)
      setError(text)
    }
  }

  const preview = phase.state === 'preview' || phase.state === 'applying' ? phase.preview : null
  const nothing = preview !== null && preview.files.length === 0 && preview.conflicts.length === 0
  // A file is listed once: one that conflicts is shown with its choice, not also as a change.
  const conflicted = new Set(preview?.conflicts.map((conflict) => conflict.path) ?? [])
  const plainFiles = preview?.files.filter((file) => !conflicted.has(file.path)) ?? []
  return (
    <Dialog
      labelledBy={titleId}
      className="undo-dialog"
      testId="undo-dialog"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && phase.state !== 'applying') {
          event.preventDefault()
          onClose()
        }
      }}
    >
      <h2 id={titleId} className="dialog-title">
        {phase.state === 'done' ? t('checkpoints.undo.doneTitle') : t(`checkpoints.undo.title.${target.kind}`)}
      </h2>
      <div className="dialog-body undo-body" data-testid="undo-body" data-state={phase.state}>
        {error && (
          <div className="dialog-error" role="alert" data-testid="undo-error">
            {error}
          </div>
        )}
        {phase.state === 'loading' && <div className="diff-loading">{t('checkpoints.loading')}</div>}
        {preview && (
          <>
            {nothing ? (
              <p data-testid="undo-nothing">{t('checkpoints.undo.nothing')}</p>
            ) : (
              plainFiles.length > 0 && (
                <>
                  <p>{t('checkpoints.undo.intro', { workspace: preview.workspace })}</p>
                  <ul className="undo-files" data-testid="undo-files">
                    {plainFiles.map((file) => (
                      <li key={file.path} data-testid="undo-file" data-path={file.path} data-kind={file.kind}>
                        <span className={`diff-kind kind-${file.kind}`}>{t(`checkpoints.undo.action.${file.kind}`)}</span>
                        <span className="diff-file-name">{file.path}</span>
                        <FileCounts file={file} />
                      </li>
                    ))}
                  </ul>
                </>
              )
            )}
            {preview.conflicts.length > 0 && (
              <section className="undo-conflicts" data-testid="undo-conflicts">
                <h3>{t('checkpoints.undo.conflicts')}</h3>
                <p>{t('checkpoints.undo.conflictsIntro')}</p>
                <ul>
                  {preview.conflicts.map((conflict) => {
                    const choice = choices[conflict.path] ?? 'keep-theirs'
                    return (
                      <li key={conflict.path} data-testid="undo-conflict" data-path={conflict.path}>
                        <span className="diff-file-name">{conflict.path}</span>
                        {(['keep-theirs', 'take-checkpoint'] as const).map((value) => (
                          <label key={value} className="undo-choice">
                            <input
                              type="radio"
                              name={`${titleId}-${conflict.path}`}
                              value={value}
                              checked={choice === value}
                              data-testid={`undo-${value}`}
                              onChange={() => setChoices((all) => ({ ...all, [conflict.path]: value }))}
                            />
                            {value === 'keep-theirs' ? t('checkpoints.undo.keepTheirs') : t('checkpoints.undo.takeCheckpoint')}
                          </label>
                        ))}
                      </li>
                    )
                  })}
                </ul>
              </section>
            )}
            {preview.notRecorded.length > 0 && (
              <div className="undo-not-recorded" data-testid="undo-not-recorded">
                <p>{t('checkpoints.undo.notRecorded')}</p>
                <ul>
                  {preview.notRecorded.map((path) => (
                    <li key={path}>{path}</li>
                  ))}
                </ul>
              </div>
            )}
          </>
        )}
        {phase.state === 'done' && <Outcome outcome={phase.outcome} />}
      </div>
      <div className="dialog-actions">
        {phase.state === 'done' ? (
          <>
            {target.kind !== 'redo' && (
              <button
                type="button"
                className="btn"
                data-testid="undo-redo"
                title={t('checkpoints.undo.redoTitle')}
                onClick={() => {
                  setError(null)
                  setTarget({ kind: 'redo', undoId: phase.outcome.undoId })
                }}
              >
                {t('checkpoints.undo.redo')}
              </button>
            )}
            <button type="button" className="btn btn-primary" data-testid="undo-close" onClick={onClose}>
              {t('checkpoints.close')}
            </button>
          </>
        ) : (
          <>
            <button type="button" className="btn" data-testid="undo-cancel" disabled={phase.state === 'applying'} onClick={onClose}>
              {t('checkpoints.undo.cancel')}
            </button>
            {preview && !nothing && (
              <button type="button" className="btn btn-primary" data-testid="undo-apply" disabled={phase.state === 'applying'} onClick={() => void apply(preview)}>
                {phase.state === 'applying' ? t('checkpoints.undo.working') : t('checkpoints.undo.apply')}
              </button>
            )}
          </>
        )}
      </div>
    </Dialog>
  )
}

function Outcome({ outcome }: { outcome: UndoOutcomeView }) {
  const t = useT()
  const none = outcome.restored.length === 0
  return (
    <div className="undo-outcome" data-testid="undo-outcome">
      <p data-testid="undo-restored">{none ? t('checkpoints.undo.noneChanged') : t('checkpoints.undo.changed', { files: outcome.restored.join(', ') })}</p>
      {outcome.kept.length > 0 && <p data-testid="undo-kept">{t('checkpoints.undo.kept', { files: outcome.kept.join(', ') })}</p>}
      {outcome.failed.map((failure) => (
        <p key={failure.path} className="dialog-error">
          {t('checkpoints.undo.failed', failure)}
        </p>
      ))}
    </div>
  )
}
