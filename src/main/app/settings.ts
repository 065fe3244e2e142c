import { homedir } from 'node:os'
import { join } from 'node:path'
import type { z } from 'zod'
import { ImageInputSchema, RuntimeChoiceSchema, SettingsSchema, ToolDescriptionsSchema, type Settings } from '../../shared'
import { DEFAULT_MAX_ITERATIONS } from '../agent'
import { DEFAULT_WATERMARK_SUFFIX } from '../chat-apps'
import { DEFAULT_SCREENSHOT_MAX_WIDTH, DEFAULT_STOP_SHORTCUT } from '../desktop'
import { DEFAULT_BASE_URLS } from '../providers'
import { DEFAULT_SANDBOX_IMAGE } from '../runtime'

export const DEFAULT_APPROVAL_TIMEOUT_MS = 5 * 60_000
/** Opens the quick-command palette from anywhere (docs/architecture.md, "The palette"). */
export const DEFAULT_PALETTE_SHORTCUT = 'CommandOrControl+Shift+Space'

export function defaultSettings(): Settings {
  return {
    provider: 'openai-compatible',
    model: '',
    baseUrl: DEFAULT_BASE_URLS['openai-compatible'],
    apiKeyEnv: '', // empty: the provider's conventional variable (OPENAI_API_KEY, …)
    autonomy: 'supervised',
    workspace: join(homedir(), 'DeskClaw'),
    language: languageFromLocale(systemLocale()),
    maxIterations: DEFAULT_MAX_ITERATIONS,
    contextWindow: 0, // automatic: the model list, else a default (providers/context-window.ts)
    readCacheTtlSec: 60,
    memoryContextChars: 1500,
    approvalTimeoutMs: DEFAULT_APPROVAL_TIMEOUT_MS,
    scheduleMissedRuns: 'catch_up',
    delegateConcurrency: 3,
    runtime: 'auto',
    dockerImage: DEFAULT_SANDBOX_IMAGE,
    allowedEnv: [],
    codeStrictness: 'standard',
    projectChecks: {},
    imageInput: 'auto',
    toolDescriptions: 'auto',
    screenshotMaxWidth: DEFAULT_SCREENSHOT_MAX_WIDTH,
    screenshotsAsk: false,
    desktopStopShortcut: DEFAULT_STOP_SHORTCUT,
    desktopFailSafe: true,
    paletteShortcut: DEFAULT_PALETTE_SHORTCUT,
    serialPorts: [],
    chatApps: {},
    chatSendMinIntervalSec: 10,
    chatSendPerHour: 20,
    chatWatermark: 'suffix',
    chatWatermarkSuffix: DEFAULT_WATERMARK_SUFFIX,
    chatSendTimeoutSec: 60,
    theme: 'system',
    browserPath: '',
    modelPrices: {},
    webDomains: [],
    webMaxBytes: 5 * 1024 * 1024,
    webTimeoutSec: 30,
    checkpoints: { enabled: true, maxFileMB: 50, keepDays: 30, maxTotalMB: 2048, keepAfterDelete: false },
    savedProviders: [],
    activeProviderId: ''
  }
}

/** The system's locale: the environment first (what a terminal user set), then ICU's guess. */
function systemLocale(env: NodeJS.ProcessEnv = process.env): string {
  return env.LC_ALL || env.LC_MESSAGES || env.LANG || Intl.DateTimeFormat().resolvedOptions().locale
}

/** Chinese locales get the Simplified Chinese UI; everything else English. */
export function languageFromLocale(locale: string): Settings['language'] {
  return /^zh/i.test(locale) ? 'zh-CN' : 'en'
}

/**
 * Built-in defaults ← saved settings ← this process's overrides (CLI flags, environment).
 * Saved values that no longer validate are dropped one by one instead of failing the start.
 */
export function resolveSettings(saved: Partial<Settings>, overrides: Partial<Settings> = {}): Settings {
  const merged: Record<string, unknown> = { ...defaultSettings() }
  const fields = SettingsSchema.shape as Record<string, z.ZodType | undefined>
  for (const layer of [saved, overrides]) {
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue
      // The schema checks each field on its own (no check across fields: a test holds it so) and
      // `merged` stays valid, so the field's own schema decides what the whole object's would —
      // without parsing all ~50 fields again per key (docs/benchmarks.md, "CLI start-up").
      // A key the schema does not know is stripped by the parse below.
      const field = Object.hasOwn(fields, key) ? fields[key] : undefined
      if (!field || field.safeParse(value).success) merged[key] = value
    }
  }
  return SettingsSchema.parse(merged)
}

/** Settings from environment variables, for headless use (DESKCLAW_PROVIDER, _MODEL, _BASE_URL). */
export function settingsFromEnv(env: NodeJS.ProcessEnv): Partial<Settings> {
  const fromEnv: Partial<Settings> = {}
  const provider = env.DESKCLAW_PROVIDER
  if (provider === 'openai' || provider === 'anthropic' || provider === 'openai-compatible') fromEnv.provider = provider
  if (env.DESKCLAW_MODEL) fromEnv.model = env.DESKCLAW_MODEL
  if (env.DESKCLAW_BASE_URL) fromEnv.baseUrl = env.DESKCLAW_BASE_URL
  if (env.DESKCLAW_API_KEY_ENV) fromEnv.apiKeyEnv = env.DESKCLAW_API_KEY_ENV
  if (env.DESKCLAW_WORKSPACE) fromEnv.workspace = env.DESKCLAW_WORKSPACE
  const runtime = RuntimeChoiceSchema.safeParse(env.DESKCLAW_RUNTIME)
  if (runtime.success) fromEnv.runtime = runtime.data
  if (env.DESKCLAW_DOCKER_IMAGE) fromEnv.dockerImage = env.DESKCLAW_DOCKER_IMAGE
  const imageInput = ImageInputSchema.safeParse(env.DESKCLAW_IMAGE_INPUT)
  if (imageInput.success) fromEnv.imageInput = imageInput.data
  const toolDescriptions = ToolDescriptionsSchema.safeParse(env.DESKCLAW_TOOL_DESCRIPTIONS)
  if (toolDescriptions.success) fromEnv.toolDescriptions = toolDescriptions.data
  if (env.DESKCLAW_ALLOW_ENV) fromEnv.allowedEnv = env.DESKCLAW_ALLOW_ENV.split(',').map((name) => name.trim()).filter(Boolean)
  return fromEnv
}
