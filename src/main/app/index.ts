/** The composition root and app-level services. */
export { DeskclawApp, type AppConfig } from './deskclaw-app'
export { AgentService } from './agent-service'
export { EventBus } from './event-bus'
export { defaultDataDir, defaultSettings, resolveSettings, settingsFromEnv, apiKeyEnvFor, languageFromLocale } from './settings'
