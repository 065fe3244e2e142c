import { useId, type ReactNode } from 'react'
import { Dialog } from './Dialog'

export interface ConfirmDialogProps {
  title: string
  body: ReactNode
  /** The dialog's test id, and its buttons' as `<testId>-cancel` / `<testId>-ok` (default confirm-dialog, confirm-cancel, confirm-ok). */
  testId?: string
  confirmLabel: string
  cancelLabel: string
  danger?: boolean
  onConfirm(): void
  onCancel(): void
}

/** A yes/no question in the app's own style (window.confirm would block and look foreign). */
export function ConfirmDialog({ title, body, testId, confirmLabel, cancelLabel, danger, onConfirm, onCancel }: ConfirmDialogProps) {
  const titleId = useId()
  const bodyId = useId()
  return (
    <Dialog
      role="alertdialog"
      labelledBy={titleId}
      describedBy={bodyId}
      className="confirm-dialog"
      testId={testId ?? 'confirm-dialog'}
      onBackdrop={onCancel}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault()
          onCancel()
        }
      }}
    >
      <h2 id={titleId} className="dialog-title">
        {title}
      </h2>
      <div id={bodyId} className="dialog-body">
        {typeof body === 'string' ? <p>{body}</p> : body}
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onCancel} data-testid={testId ? `${testId}-cancel` : 'confirm-cancel'}>
          {cancelLabel}
        </button>
        <button
          type="button"
          className={danger ? 'btn btn-danger' : 'btn btn-primary'}
          onClick={onConfirm}
          data-testid={testId ? `${testId}-ok` : 'confirm-ok'}
        >
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  )
}
