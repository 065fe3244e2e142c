/** The composition root and app-level services. */
export { DeskclawApp, type AppConfig, type DesktopHost } from './deskclaw-app'
export { PROJECT_RULES_FILE, USER_RULES_FILE } from './rules-service'
export { ServiceSet, type AppService } from './services'
export { AgentService } from './agent-service'
export { EventBus } from './event-bus'
export { APP_VERSION } from './version'
export { defaultDataDir, defaultSettings, resolveSettings, settingsFromEnv, languageFromLocale } from './settings'
export { confirmRiskySettings, riskySettingChanges, type RiskySettingChange, type SettingConfirmer } from './risky-settings'
