/**
 * The Diff dialog (docs/checkpoints.md, "The UI"): the files that differ between two checkpoints
 * (kind, path, +/−, sizes) and the selected file's diff. Arrows move between files, Esc closes.
 */
import { useEffect, useId, useMemo, useState } from 'react'
import type { FileSide } from '../../../../shared/bridge/checkpoints'
import type { ChangedFile } from '../../../../shared/checkpoints'
import { getDeskclawApi } from '../../bridge'
import { type Translator, useT } from '../../i18n'
import { Dialog } from '../common'
import { FileDiffView } from './FileDiffView'
import { FileList } from './FileList'
import { useDiffViewMode } from './view-mode'

/** Where the diff comes from: two checkpoints of a conversation's workspace, or a staged run's copy against the real workspace. */
export type DiffSource = { kind: 'checkpoints'; conversationId: string; before: string; after: string } | { kind: 'staged'; runId: string; files: ChangedFile[] }

export interface DiffDialogProps {
  source: DiffSource
  title: string
  onClose(): void
}

type Sides = { before: FileSide; after: FileSide }
type BridgeAnswer<T> = { ok: true; data: T } | { ok: false; error: Parameters<Translator['error']>[0] }

function loadFiles(source: DiffSource): Promise<BridgeAnswer<ChangedFile[]>> {
  if (source.kind === 'staged') return Promise.resolve({ ok: true, data: source.files })
  const { conversationId, before, after } = source
  return getDeskclawApi().invoke('checkpoints.changes', { conversationId, before, after })
}

function loadSides(source: DiffSource, path: string): Promise<BridgeAnswer<Sides>> {
  if (source.kind === 'staged') return getDeskclawApi().invoke('staged.fileDiff', { runId: source.runId, path })
  const { conversationId, before, after } = source
  return getDeskclawApi().invoke('checkpoints.fileDiff', { conversationId, before, after, path })
}

type Loaded<T> = { state: 'loading' } | { state: 'ready'; value: T } | { state: 'error'; text: string }

export function DiffDialog({ source: given, title, onClose }: DiffDialogProps) {
  const t = useT()
  const titleId = useId()
  // The same source on every render of the parent: loaded once, not again on each store update.
  const sourceKey = JSON.stringify(given)
  const source = useMemo(() => given, [sourceKey])
  const [files, setFiles] = useState<Loaded<ChangedFile[]>>({ state: 'loading' })
  const [selected, setSelected] = useState(0)
  useEffect(() => {
    let live = true
    void loadFiles(source).then((result) => {
      if (live) setFiles(result.ok ? { state: 'ready', value: result.data } : { state: 'error', text: t.error(result.error) })
    })
    return () => {
      live = false
    }
  }, [source, t])
  const list = files.state === 'ready' ? files.value : []
  const file = list[Math.min(selected, list.length - 1)]

  return (
    <Dialog
      labelledBy={titleId}
      className="diff-dialog"
      testId="diff-dialog"
      onBackdrop={onClose}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault()
          onClose()
        } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && list.length > 0) {
          event.preventDefault()
          setSelected((i) => Math.max(0, Math.min(list.length - 1, i + (event.key === 'ArrowDown' ? 1 : -1))))
        }
      }}
    >
      <div className="diff-dialog-head">
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <ViewToggle />
      </div>
      {files.state === 'loading' && <div className="diff-loading">{t('checkpoints.loading')}</div>}
      {files.state === 'error' && (
        <div className="dialog-error" role="alert" data-testid="diff-error">
          {files.text}
        </div>
      )}
      {files.state === 'ready' && (
        <div className="diff-dialog-body">
          <FileList files={list} selected={file?.path} onSelect={(path) => setSelected(list.findIndex((f) => f.path === path))} />
          {file && <SelectedFile key={file.path} source={source} file={file} />}
        </div>
      )}
      <div className="dialog-actions">
        <span className="diff-keys-hint">{t('checkpoints.keysHint')}</span>
        <button type="button" className="btn" data-testid="diff-close" onClick={onClose}>
          {t('checkpoints.close')}
        </button>
      </div>
    </Dialog>
  )
}

function ViewToggle() {
  const t = useT()
  const { mode, setMode } = useDiffViewMode()
  return (
    <div className="diff-view-toggle" role="group" aria-label={t('checkpoints.view')}>
      {(['split', 'unified'] as const).map((value) => (
        <button
          key={value}
          type="button"
          className={`btn btn-small${mode === value ? ' is-active' : ''}`}
          aria-pressed={mode === value}
          data-testid={`diff-view-${value}`}
          onClick={() => setMode(value)}
        >
          {t(`checkpoints.view.${value}`)}
        </button>
      ))}
    </div>
  )
}

function SelectedFile({ source, file }: { source: DiffSource; file: ChangedFile }) {
  const t = useT()
  const mode = useDiffViewMode((s) => s.mode)
  const [sides, setSides] = useState<Loaded<Sides>>({ state: 'loading' })
  useEffect(() => {
    let live = true
    void loadSides(source, file.path).then((result) => {
      if (live) setSides(result.ok ? { state: 'ready', value: result.data } : { state: 'error', text: t.error(result.error) })
    })
    return () => {
      live = false
    }
  }, [source, file.path, t])
  return (
    <div className="diff-file" data-testid="diff-file" data-path={file.path}>
      <div className="diff-file-path">{file.path}</div>
      {sides.state === 'loading' && <div className="diff-loading">{t('checkpoints.loading')}</div>}
      {sides.state === 'error' && (
        <div className="dialog-error" role="alert">
          {sides.text}
        </div>
      )}
      {sides.state === 'ready' && <FileDiffView file={file} sides={sides.value} mode={mode} />}
    </div>
  )
}
