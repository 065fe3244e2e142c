/**
 * Settings → General: the interface's language (part of the settings form's draft, saved by the
 * form's Save button) and the theme (applied and saved at once by ThemeField).
 */
import type { Language } from '../../../../shared/bridge'
import { languages, useT } from '../../i18n'
import { ThemeField } from '../theme'
import { Field } from './fields'
import type { SettingsFormState } from './use-settings-form'

export function GeneralSection({ form }: { form: SettingsFormState }) {
  const t = useT()
  const { id, draft, set } = form
  return (
    <section>
      <h3>{t('settings.section.general')}</h3>
      <Field label={t('settings.language')} htmlFor={`${id}-lang`}>
        <select
          id={`${id}-lang`}
          className="text-input"
          data-testid="settings-language"
          value={draft.language}
          onChange={(event) => set('language', event.target.value as Language)}
        >
          {languages.map((language) => (
            <option key={language} value={language} lang={language}>
              {t(`language.${language}`)}
            </option>
          ))}
        </select>
      </Field>
      <ThemeField />
    </section>
  )
}
