/** The settings form's foot: why it cannot be saved or that it was, Close, and Save (the form's submit). */
import { useT } from '../../i18n'
import type { SettingsFormState } from './use-settings-form'

export function SettingsFooter({ form, onClose }: { form: SettingsFormState; /** Close: asks first while the form holds unsaved changes. */ onClose(): void }) {
  const t = useT()
  const { error, invalid, saved, saving } = form
  return (
    <div className="settings-footer">
      <div className="settings-status">
        {error && (
          <div className="form-error" role="alert" data-testid="settings-error">
            {error}
          </div>
        )}
        {invalid && !error && <span className="field-error">{t('settings.fixFields')}</span>}
        {saved && !error && !invalid && (
          <span className="form-ok" data-testid="settings-saved">
            {t('settings.saved')}
          </span>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" data-testid="settings-close" onClick={onClose}>
          {t('settings.close')}
        </button>
        <button
          type="submit"
          className="btn btn-primary"
          data-testid="settings-save"
          disabled={saving || invalid}
          title={invalid ? t('settings.fixFields') : undefined}
        >
          {saving ? t('settings.saving') : t('settings.save')}
        </button>
      </div>
    </div>
  )
}
