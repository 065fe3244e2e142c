/**
 * The Diff dialog (docs/checkpoints.md, "The UI"): the files that differ between two checkpoints
 * (kind, path, +/−, sizes) and the selected file's diff. Arrows move between files, Esc closes.
 */
import { useEffect, useId, useState } from 'react'
import type { FileSide } from '../../../../shared/bridge/checkpoints'
import type { ChangedFile } from '../../../../shared/checkpoints'
import { getDeskclawApi } from '../../bridge'
import { useT } from '../../i18n'
import { Dialog } from '../common'
import { FileDiffView } from './FileDiffView'
import { FileList } from './FileList'
import { useDiffViewMode } from './view-mode'

export interface DiffDialogProps {
  conversationId: string
  before: string
  after: string
  title: string
  onClose(): void
}

type Loaded<T> = { state: 'loading' } | { state: 'ready'; value: T } | { state: 'error'; text: string }

export function DiffDialog({ conversationId, before, after, title, onClose }: DiffDialogProps) {
  const t = useT()
  const titleId = useId()
  const [files, setFiles] = useState<Loaded<ChangedFile[]>>({ state: 'loading' })
  const [selected, setSelected] = useState(0)
  useEffect(() => {
    let live = true
    void getDeskclawApi()
      .invoke('checkpoints.changes', { conversationId, before, after })
      .then((result) => {
        if (live) setFiles(result.ok ? { state: 'ready', value: result.data } : { state: 'error', text: t.error(result.error) })
      })
    return () => {
      live = false
    }
  }, [conversationId, before, after, t])
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
          {file && <SelectedFile key={file.path} conversationId={conversationId} before={before} after={after} file={file} />}
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

function SelectedFile({ conversationId, before, after, file }: { conversationId: string; before: string; after: string; file: ChangedFile }) {
  const t = useT()
  const mode = useDiffViewMode((s) => s.mode)
  const [sides, setSides] = useState<Loaded<{ before: FileSide; after: FileSide }>>({ state: 'loading' })
  useEffect(() => {
    let live = true
    void getDeskclawApi()
      .invoke('checkpoints.fileDiff', { conversationId, before, after, path: file.path })
      .then((result) => {
        if (live) setSides(result.ok ? { state: 'ready', value: result.data } : { state: 'error', text: t.error(result.error) })
      })
    return () => {
      live = false
    }
  }, [conversationId, before, after, file.path, t])
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
