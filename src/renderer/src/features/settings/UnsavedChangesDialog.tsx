import { useId } from 'react'
import { useT } from '../../i18n'
import { Dialog } from '../common'

export interface UnsavedChangesDialogProps {
  /** The changes cannot be saved as they are (a field is invalid): only discard or keep editing. */
  canSave: boolean
  saving: boolean
  onSave(): void
  onDiscard(): void
  onKeepEditing(): void
}

/** Closing Settings with changes not saved asks first (issue 22: closing must never drop changes silently). */
export function UnsavedChangesDialog({ canSave, saving, onSave, onDiscard, onKeepEditing }: UnsavedChangesDialogProps) {
  const t = useT()
  const titleId = useId()
  const bodyId = useId()
  return (
    <Dialog
      role="alertdialog"
      labelledBy={titleId}
      describedBy={bodyId}
      className="confirm-dialog unsaved-dialog"
      testId="settings-unsaved"
      onBackdrop={onKeepEditing}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault()
          onKeepEditing()
        }
      }}
    >
      <h2 id={titleId} className="dialog-title">
        {t('settings.unsaved.title')}
      </h2>
      <div id={bodyId} className="dialog-body">
        <p>{canSave ? t('settings.unsaved.body') : t('settings.unsaved.bodyInvalid')}</p>
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" data-testid="settings-unsaved-keep" onClick={onKeepEditing}>
          {t('settings.unsaved.keep')}
        </button>
        <button type="button" className="btn btn-danger" data-testid="settings-unsaved-discard" onClick={onDiscard}>
          {t('settings.unsaved.discard')}
        </button>
        {canSave && (
          <button type="button" className="btn btn-primary" data-testid="settings-unsaved-save" disabled={saving} onClick={onSave}>
            {t('settings.unsaved.save')}
          </button>
        )}
      </div>
    </Dialog>
  )
}
