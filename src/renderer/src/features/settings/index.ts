/** The settings dialog: model provider, autonomy, workspace, language, limits. */
export { SettingsPanel, type SettingsSection } from './SettingsPanel'
export { ModelCombobox, type ModelComboboxProps } from './ModelCombobox'
export { useServerModels, type ServerModels } from './server-models'
