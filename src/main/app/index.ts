/** The composition root and app-level services. */
export { DeskclawApp, PROJECT_RULES_FILE, USER_RULES_FILE, type AppConfig } from './deskclaw-app'
export { AgentService } from './agent-service'
export { EventBus } from './event-bus'
export { APP_VERSION } from './version'
export { defaultDataDir, defaultSettings, resolveSettings, settingsFromEnv, languageFromLocale } from './settings'
