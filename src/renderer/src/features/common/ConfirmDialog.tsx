import { useId } from 'react'
import { Dialog } from './Dialog'

export interface ConfirmDialogProps {
  title: string
  body: string
  confirmLabel: string
  cancelLabel: string
  danger?: boolean
  onConfirm(): void
  onCancel(): void
}

/** A yes/no question in the app's own style (window.confirm would block and look foreign). */
export function ConfirmDialog({ title, body, confirmLabel, cancelLabel, danger, onConfirm, onCancel }: ConfirmDialogProps) {
  const titleId = useId()
  const bodyId = useId()
  return (
    <Dialog
      role="alertdialog"
      labelledBy={titleId}
      describedBy={bodyId}
      className="confirm-dialog"
      testId="confirm-dialog"
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
      <p id={bodyId} className="dialog-body">
        {body}
      </p>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onCancel} data-testid="confirm-cancel">
          {cancelLabel}
        </button>
        <button
          type="button"
          className={danger ? 'btn btn-danger' : 'btn btn-primary'}
          onClick={onConfirm}
          data-testid="confirm-ok"
        >
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  )
}
