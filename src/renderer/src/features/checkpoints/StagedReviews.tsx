/**
 * Apply-at-end runs waiting for review in this conversation (docs/checkpoints.md, "Apply at the
 * end"): the run's one diff with a checkbox per file, the real files changed meanwhile (kept unless
 * the run's version is chosen), and Apply selected / Apply all / Discard. staged.pending lists them
 * again after a reload or a restart.
 */
import { useCallback, useEffect, useMemo, useState } from 'react'
import type { ChangedFile } from '../../../../shared/checkpoints'
import { getDeskclawApi } from '../../bridge'
import { useT } from '../../i18n'
import { useChatStore } from '../../stores'
import { DiffDialog } from './DiffDialog'
import { FileCounts } from './FileList'
import './checkpoints.css'

export function StagedReviews({ conversationId }: { conversationId: string | null }) {
  // Looked up again whenever one of the conversation's runs starts or ends.
  const runsKey = useChatStore((s) => (s.snapshot?.runs ?? []).map((run) => `${run.id}:${run.status}`).join(','))
  const [runIds, setRunIds] = useState<string[]>([])
  const load = useCallback(async () => {
    if (!conversationId) return setRunIds([])
    // Asked again a few times when the bridge is not answering yet (a reload still connecting).
    for (let attempt = 0; attempt < 5; attempt++) {
      const result = await getDeskclawApi().invoke('staged.pending', {})
      if (result.ok) return setRunIds(result.data.filter((entry) => entry.conversationId === conversationId).map((entry) => entry.runId))
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  }, [conversationId])
  useEffect(() => {
    void load()
  }, [load, runsKey])
  // A run still working in its copy has nothing to review yet.
  const shown = runIds.filter((id) => !runsKey.split(',').includes(`${id}:running`))
  if (shown.length === 0) return null
  return (
    <div className="staged-reviews">
      {shown.map((runId) => (
        <ReviewCard key={runId} runId={runId} onDone={() => void load()} />
      ))}
    </div>
  )
}

type Review = { workspace: string; files: ChangedFile[]; conflicts: string[] }
type Done = { kind: 'applied'; files: string[]; kept: string[]; failed: Array<{ path: string; reason: string }> } | { kind: 'discarded' }

function ReviewCard({ runId, onDone }: { runId: string; onDone(): void }) {
  const t = useT()
  const [review, setReview] = useState<Review | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [unchecked, setUnchecked] = useState<ReadonlySet<string>>(new Set())
  const [takeRun, setTakeRun] = useState<ReadonlySet<string>>(new Set())
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState<Done | null>(null)
  const [diffOpen, setDiffOpen] = useState(false)
  useEffect(() => {
    let live = true
    void getDeskclawApi()
      .invoke('staged.review', { runId })
      .then((result) => {
        if (!live) return
        if (result.ok) setReview(result.data)
        else setError(t.error(result.error))
      })
    return () => {
      live = false
    }
  }, [runId, t])
  const conflicts = useMemo(() => new Set(review?.conflicts ?? []), [review])

  const apply = async (paths: string[] | null) => {
    setBusy(true)
    setError(null)
    const choices = Object.fromEntries([...takeRun].map((path) => [path, 'take-checkpoint' as const]))
    const result = await getDeskclawApi().invoke('staged.apply', { runId, ...(paths ? { paths } : {}), choices })
    setBusy(false)
    if (result.ok) setDone({ kind: 'applied', files: result.data.applied, kept: result.data.kept, failed: result.data.failed })
    else setError(t.error(result.error))
  }
  const discard = async () => {
    setBusy(true)
    setError(null)
    const result = await getDeskclawApi().invoke('staged.discard', { runId })
    setBusy(false)
    if (result.ok) setDone({ kind: 'discarded' })
    else setError(t.error(result.error))
  }

  return (
    <section className="staged-review" data-testid="staged-review" data-run-id={runId} aria-label={t('checkpoints.review.title')}>
      <h3>{t('checkpoints.review.title')}</h3>
      {error && (
        <div className="dialog-error" role="alert" data-testid="staged-error">
          {error}
        </div>
      )}
      {done ? (
        <div data-testid="staged-done" data-kind={done.kind}>
          {done.kind === 'discarded' ? (
            <p>{t('checkpoints.review.discarded')}</p>
          ) : (
            <>
              <p>{done.files.length > 0 ? t('checkpoints.review.applied', { files: done.files.join(', ') }) : t('checkpoints.undo.noneChanged')}</p>
              {done.kept.length > 0 && <p>{t('checkpoints.undo.kept', { files: done.kept.join(', ') })}</p>}
              {done.failed.map((failure) => (
                <p key={failure.path} className="dialog-error">
                  {t('checkpoints.undo.failed', failure)}
                </p>
              ))}
            </>
          )}
          <button type="button" className="btn btn-small" data-testid="staged-close" onClick={onDone}>
            {t('checkpoints.close')}
          </button>
        </div>
      ) : (
        review && (
          <>
            <p>{t('checkpoints.review.intro', { workspace: review.workspace })}</p>
            {review.files.length === 0 ? (
              <p data-testid="staged-empty">{t('checkpoints.review.empty')}</p>
            ) : (
              <>
                <button type="button" className="changes-chip" data-testid="staged-diff" onClick={() => setDiffOpen(true)}>
                  {t.count('checkpoints.chip', review.files.length)}
                </button>
                <ul className="staged-files">
                  {review.files.map((file) => (
                    <li key={file.path} data-testid="staged-file" data-path={file.path}>
                      <label>
                        <input
                          type="checkbox"
                          data-testid="staged-select"
                          aria-label={t('checkpoints.review.select', { path: file.path })}
                          checked={!unchecked.has(file.path)}
                          onChange={(event) => setUnchecked(toggled(unchecked, file.path, !event.target.checked))}
                        />
                        <span className={`diff-kind kind-${file.kind}`}>{t(`checkpoints.kind.${file.kind}`)}</span>
                        <span className="diff-file-name">{file.path}</span>
                      </label>
                      <FileCounts file={file} />
                      {conflicts.has(file.path) && (
                        <label className="staged-conflict" data-testid="staged-conflict">
                          <span className="staged-conflict-tag">{t('checkpoints.review.conflict')}</span>
                          <input
                            type="checkbox"
                            data-testid="staged-take-run"
                            checked={takeRun.has(file.path)}
                            onChange={(event) => setTakeRun(toggled(takeRun, file.path, event.target.checked))}
                          />
                          {t('checkpoints.review.takeRun')}
                        </label>
                      )}
                    </li>
                  ))}
                </ul>
                {conflicts.size > 0 && <p className="staged-conflicts-intro">{t('checkpoints.review.conflictsIntro')}</p>}
              </>
            )}
            <div className="staged-actions">
              {review.files.length > 0 && (
                <>
                  <button
                    type="button"
                    className="btn"
                    data-testid="staged-apply-selected"
                    disabled={busy || unchecked.size === review.files.length}
                    onClick={() => void apply(review.files.map((file) => file.path).filter((path) => !unchecked.has(path)))}
                  >
                    {t('checkpoints.review.applySelected')}
                  </button>
                  <button type="button" className="btn btn-primary" data-testid="staged-apply-all" disabled={busy} onClick={() => void apply(null)}>
                    {t('checkpoints.review.applyAll')}
                  </button>
                </>
              )}
              <button type="button" className="btn btn-danger" data-testid="staged-discard" disabled={busy} onClick={() => void discard()}>
                {t('checkpoints.review.discard')}
              </button>
            </div>
            {diffOpen && <DiffDialog source={{ kind: 'staged', runId, files: review.files }} title={t('checkpoints.review.title')} onClose={() => setDiffOpen(false)} />}
          </>
        )
      )}
    </section>
  )
}

function toggled(set: ReadonlySet<string>, path: string, present: boolean): ReadonlySet<string> {
  const next = new Set(set)
  if (present) next.add(path)
  else next.delete(path)
  return next
}
