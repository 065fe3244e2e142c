/** Light, dark or the system's: the Settings theme applied to the page, its Settings field and a quick toggle. */
export { applyTheme, rememberedTheme } from './theme'
export { changeTheme, useAppliedTheme, useTheme } from './use-theme'
export { ThemeField, ThemeToggle } from './ThemeControls'
