/**
 * Applying the Settings theme to the page: `data-theme` on <html>, which styles.css reads (the dark
 * palette applies for `dark`, and for `system` when the system prefers dark).
 */
import type { Theme } from '../../../../shared/bridge'

export const THEMES: readonly Theme[] = ['system', 'light', 'dark']

/**
 * The last theme applied, kept in this browser so the next start paints in it before settings
 * arrive from main (a dark-theme user would otherwise see a white frame first).
 */
const STORAGE_KEY = 'deskclaw.theme'

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme
  try {
    localStorage.setItem(STORAGE_KEY, theme)
  } catch {
    // No storage: the next start paints in the system's theme until settings arrive.
  }
}

/** The theme applied last time in this browser, or `system`. */
export function rememberedTheme(): Theme {
  try {
    const value = localStorage.getItem(STORAGE_KEY)
    return THEMES.find((theme) => theme === value) ?? 'system'
  } catch {
    return 'system'
  }
}

/** The quick toggle's order: system → light → dark → system. */
export function nextTheme(theme: Theme): Theme {
  return THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length]!
}
