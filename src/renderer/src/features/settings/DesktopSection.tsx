/**
 * Settings → Desktop control: how large a screenshot is sent, the shortcuts that stop a run and open
 * the quick-command palette, whether screenshots ask first, and the fail-safe corner. Part of the
 * settings form's draft: saved by the form's Save button.
 */
import { useT } from '../../i18n'
import { CheckField, Field } from './fields'
import type { SettingsFormState } from './use-settings-form'

export function DesktopSection({ form }: { form: SettingsFormState }) {
  const t = useT()
  const { id, draft, errors, set, aria } = form
  return (
    <section>
      <h3>{t('settings.section.desktop')}</h3>
      <div className="field-row">
        <Field
          label={t('settings.screenshotMaxWidth')}
          hint={t('settings.screenshotMaxWidthHint')}
          htmlFor={`${id}-shot-width`}
          field="screenshotMaxWidth"
          error={errors.screenshotMaxWidth}
        >
          <input
            id={`${id}-shot-width`}
            className="text-input"
            data-testid="settings-screenshot-max-width"
            {...aria('screenshotMaxWidth', `${id}-shot-width`)}
            type="number"
            min={320}
            max={7680}
            step={1}
            value={draft.screenshotMaxWidth}
            onChange={(event) => set('screenshotMaxWidth', event.target.value)}
          />
        </Field>
        <Field
          label={t('settings.desktopStopShortcut')}
          hint={t('settings.desktopStopShortcutHint')}
          htmlFor={`${id}-stop-shortcut`}
          field="desktopStopShortcut"
          error={errors.desktopStopShortcut}
        >
          <input
            id={`${id}-stop-shortcut`}
            className="text-input mono"
            data-testid="settings-desktop-stop-shortcut"
            {...aria('desktopStopShortcut', `${id}-stop-shortcut`)}
            value={draft.desktopStopShortcut}
            maxLength={60}
            spellCheck={false}
            autoComplete="off"
            placeholder="Ctrl+Alt+Escape"
            onChange={(event) => set('desktopStopShortcut', event.target.value)}
          />
        </Field>
        <Field label={t('settings.paletteShortcut')} hint={t('settings.paletteShortcutHint')} htmlFor={`${id}-palette-shortcut`} field="paletteShortcut" error={errors.paletteShortcut}>
          <input
            id={`${id}-palette-shortcut`}
            className="text-input mono"
            data-testid="settings-palette-shortcut"
            {...aria('paletteShortcut', `${id}-palette-shortcut`)}
            value={draft.paletteShortcut}
            maxLength={60}
            spellCheck={false}
            autoComplete="off"
            placeholder="CommandOrControl+Shift+Space"
            onChange={(event) => set('paletteShortcut', event.target.value)}
          />
        </Field>
      </div>
      <CheckField
        label={t('settings.screenshotsAsk')}
        hint={t('settings.screenshotsAskHint')}
        testId="settings-screenshots-ask"
        checked={draft.screenshotsAsk}
        onChange={(checked) => set('screenshotsAsk', checked)}
      />
      <CheckField
        label={t('settings.desktopFailSafe')}
        hint={t('settings.desktopFailSafeHint')}
        testId="settings-desktop-fail-safe"
        checked={draft.desktopFailSafe}
        onChange={(checked) => set('desktopFailSafe', checked)}
      />
    </section>
  )
}
