/** The settings dialog: model provider, autonomy, workspace, language, limits. */
export { SettingsPanel } from './SettingsPanel'
