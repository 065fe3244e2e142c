/**
 * Applying the Settings theme to the page: `data-theme="light|dark"` on <html>, which the
 * stylesheets read (theme.css holds each theme's colours). "system" is resolved here from prefers-color-scheme and followed while it is in force,
 * so the stylesheet states each dark rule once.
 */
import type { Theme } from '../../../../shared/bridge'

export const THEMES: readonly Theme[] = ['system', 'light', 'dark']

/**
 * The last theme applied, kept in this browser so the next start paints in it before settings
 * arrive from main (a dark-theme user would otherwise see a white frame first).
 */
const STORAGE_KEY = 'deskclaw.theme'

const systemDark = typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null
let followSystem: (() => void) | null = null

/** light or dark: the theme itself, or the system's for `system`. */
export function resolvedTheme(theme: Theme): 'light' | 'dark' {
  if (theme !== 'system') return theme
  return systemDark?.matches ? 'dark' : 'light'
}

export function applyTheme(theme: Theme): void {
  const root = document.documentElement
  root.dataset.theme = resolvedTheme(theme)
  root.dataset.themeChoice = theme
  if (followSystem) systemDark?.removeEventListener('change', followSystem)
  followSystem = theme === 'system' ? () => (root.dataset.theme = resolvedTheme('system')) : null
  if (followSystem) systemDark?.addEventListener('change', followSystem)
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
