import { useId } from 'react'
import type { Theme } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { MonitorIcon, MoonIcon, SunIcon } from './icons'
import { nextTheme, THEMES } from './theme'
import { changeTheme, useTheme } from './use-theme'

const ICONS: Record<Theme, typeof SunIcon> = { system: MonitorIcon, light: SunIcon, dark: MoonIcon }

/** One click to the next theme (system → light → dark); the icon shows the current one. */
export function ThemeToggle({ className = 'icon-button theme-toggle' }: { className?: string }) {
  const t = useT()
  const theme = useTheme()
  const next = nextTheme(theme)
  const CurrentIcon = ICONS[theme]
  const label = t('theme.toggleTitle', { current: t(`theme.${theme}`), next: t(`theme.${next}`) })
  return (
    <button
      type="button"
      className={className}
      data-testid="theme-toggle"
      data-theme-value={theme}
      title={label}
      aria-label={label}
      onClick={() => void changeTheme(next)}
    >
      <CurrentIcon />
    </button>
  )
}

/**
 * The Settings control: three choices applied and saved at once (like the language toggle), so it
 * is not part of the form's draft and its Save.
 */
export function ThemeField() {
  const t = useT()
  const id = useId()
  const theme = useTheme()
  return (
    <fieldset className="field theme-field" aria-describedby={`${id}-hint`}>
      <legend className="field-label">{t('theme.label')}</legend>
      <div className="theme-choices">
        {THEMES.map((value) => {
          const ChoiceIcon = ICONS[value]
          return (
            <label key={value} className={`theme-choice${theme === value ? ' checked' : ''}`}>
              <input
                type="radio"
                name={`${id}-theme`}
                value={value}
                data-testid={`settings-theme-${value}`}
                checked={theme === value}
                onChange={() => void changeTheme(value)}
              />
              <ChoiceIcon size={14} />
              <span>{t(`theme.${value}`)}</span>
            </label>
          )
        })}
      </div>
      <div id={`${id}-hint`} className="field-hint">
        {t('theme.hint')}
      </div>
    </fieldset>
  )
}
