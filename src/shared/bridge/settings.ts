/** Settings over the bridge: autonomy, provider, language, runtime, the Settings shape, and settings.* calls. */
import { z } from 'zod'
import { parseAccelerator } from '../accelerator'
import { ErrorCodes, ErrorTextKeys } from '../errors'
import { defineCall } from './define-call'

export const AutonomySchema = z.enum(['readonly', 'supervised', 'full'])
export type Autonomy = z.infer<typeof AutonomySchema>

/** What a scheduled run missed while DeskClaw was closed does: run once now, or wait for the next time. */
export const MissedRunPolicySchema = z.enum(['catch_up', 'skip'])
export type MissedRunPolicy = z.infer<typeof MissedRunPolicySchema>

export const ProviderKindSchema = z.enum(['openai', 'anthropic', 'openai-compatible'])
export type ProviderKind = z.infer<typeof ProviderKindSchema>

export const LanguageSchema = z.enum(['en', 'zh-CN'])

/** A chat app profile's id (resources/desktop-apps/<id>.json). */
export const CHAT_APP_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/

export const ChatWatermarkSchema = z.enum(['suffix', 'zero-width', 'none'])
export type ChatWatermark = z.infer<typeof ChatWatermarkSchema>

/** Where shell commands run (docs/runtimes.md). `auto`: docker, else bwrap / sandbox-exec, else native. */
export const RuntimeChoiceSchema = z.enum(['auto', 'docker', 'bwrap', 'native'])
export type RuntimeChoice = z.infer<typeof RuntimeChoiceSchema>
export type Language = z.infer<typeof LanguageSchema>

/**
 * How run_code may run a snippet (docs/tools.md, "run_code"): `strict` only in a sandbox with the
 * workspace read-only, `standard` in a sandbox with it writable (natively, after asking, when none
 * can run), `trusted` in the runtime chosen for shell commands.
 */
export const CodeStrictnessSchema = z.enum(['strict', 'standard', 'trusted'])
export type CodeStrictness = z.infer<typeof CodeStrictnessSchema>

/** The longest check command Settings keeps, and how many workspaces may have their own. */
export const PROJECT_CHECK_COMMAND_MAX = 2000
export const PROJECT_CHECKS_MAX = 200

/**
 * A workspace's own check commands (docs/tools.md, "lint"), which the lint tool uses before what the
 * project's manifests declare; a kind left out is still found in the manifests.
 */
export const ProjectCheckCommandsSchema = z
  .object({
    lint: z.string().trim().min(1).max(PROJECT_CHECK_COMMAND_MAX).optional(),
    typecheck: z.string().trim().min(1).max(PROJECT_CHECK_COMMAND_MAX).optional(),
    test: z.string().trim().min(1).max(PROJECT_CHECK_COMMAND_MAX).optional()
  })
  .strict()
export type ProjectCheckCommands = z.infer<typeof ProjectCheckCommandsSchema>

/** Absolute on POSIX (`/…`) or Windows (`C:\…`, `\\server\…`). */
const AbsolutePathSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((path) => /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(path), 'an absolute folder path')

export const ImageInputSchema = z.enum(['auto', 'on', 'off'])
export type ImageInput = z.infer<typeof ImageInputSchema>

/** How tools are described to the model (docs/tools.md, "Compact tool descriptions"): `auto` is compact for small context windows. */
export const ToolDescriptionsSchema = z.enum(['auto', 'full', 'compact'])
export type ToolDescriptions = z.infer<typeof ToolDescriptionsSchema>

export const ThemeSchema = z.enum(['system', 'light', 'dark'])

export type Theme = z.infer<typeof ThemeSchema>

/** An absolute http: or https: URL with a host (what a model server's base URL must be). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

/**
 * A base URL: empty (the provider's default endpoint; openai-compatible has none, see
 * settingsProblems) or an http(s) URL.
 */
export const BaseUrlSchema = z
  .string()
  .max(2048)
  .refine((text) => text.trim() === '' || isHttpUrl(text.trim()), 'not an http(s) URL (write e.g. http://localhost:11434/v1)')

/** The variable each provider's key is conventionally read from, when Settings names none. */
export const CONVENTIONAL_API_KEY_ENV: Readonly<Record<ProviderKind, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  'openai-compatible': 'DESKCLAW_API_KEY'
}

/** The variable the model's key is read from: the one Settings names, else the provider's conventional one. */
export function modelKeyEnvOf(settings: { provider: ProviderKind; apiKeyEnv?: string }): string {
  return settings.apiKeyEnv?.trim() || CONVENTIONAL_API_KEY_ENV[settings.provider]
}

/** Providers with an endpoint of their own, so an empty base URL means it. */
export const PROVIDERS_WITH_DEFAULT_BASE_URL: readonly ProviderKind[] = ['openai', 'anthropic']

/** The currencies a model price may be in (Settings.modelPrices). */
export const PriceCurrencySchema = z.enum(['USD', 'CNY'])
export type PriceCurrency = z.infer<typeof PriceCurrencySchema>

/** The most models Settings.modelPrices holds. */
export const MODEL_PRICES_MAX = 200

/** A price per million tokens: a finite number, zero (a free or local model) or more. */
const PricePerMTokSchema = z.number().finite().nonnegative().max(1_000_000)

/** What one model costs per million tokens, as its provider publishes it. */
export const ModelPriceSchema = z.object({
  inputPerMTok: PricePerMTokSchema,
  outputPerMTok: PricePerMTokSchema,
  /** Input tokens read from the prompt cache; absent: they cost inputPerMTok. */
  cachedInputPerMTok: PricePerMTokSchema.optional(),
  /** Absent: USD. */
  currency: PriceCurrencySchema.optional()
})
export type ModelPrice = z.infer<typeof ModelPriceSchema>

/** One domain rule of Settings.webDomains. */
export const WebDomainRuleSchema = z.object({
  pattern: z
    .string()
    .trim()
    .min(1)
    .max(253)
    .regex(/^(\*|(\*\.)?[A-Za-z0-9._:[\]-]+)$/, 'a host name, *.example.com, an IP address or *'),
  decision: z.enum(['allow', 'ask', 'deny'])
})
export type WebDomainRule = z.infer<typeof WebDomainRuleSchema>

/** What checkpoints record and how long they are kept (docs/checkpoints.md, "Settings"). */
export const CheckpointSettingsSchema = z.object({
  enabled: z.boolean(),
  /** Files larger than this are left out of checkpoints, with a note. */
  maxFileMB: z.number().int().min(1).max(4096),
  /** Checkpoints older than this many days are pruned. */
  keepDays: z.number().int().min(1).max(3650),
  /** Then the oldest, until a workspace's checkpoints take at most this much disk. */
  maxTotalMB: z.number().int().min(10).max(1_000_000),
  /** Deleting a conversation also deletes its checkpoints, unless this is on. */
  keepAfterDelete: z.boolean()
})
export type CheckpointSettings = z.infer<typeof CheckpointSettingsSchema>

/** A saved provider's id (made by the renderer when it is added; also part of its key's secret name). */
export const SAVED_PROVIDER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

/** The most providers Settings.savedProviders holds. */
export const SAVED_PROVIDERS_MAX = 50

/**
 * A provider saved under a name to switch to (Settings → Model providers): its kind, base URL, key
 * variable and model, and the models its server listed last. Its pasted key is stored under its id
 * (secrets, `savedProviderId`), never shared with another saved provider.
 */
export const SavedProviderIdSchema = z.string().regex(SAVED_PROVIDER_ID_PATTERN)

export const SavedProviderSchema = z.object({
  id: SavedProviderIdSchema,
  name: z.string().trim().min(1).max(100),
  provider: ProviderKindSchema,
  baseUrl: BaseUrlSchema,
  apiKeyEnv: z.string().max(200),
  model: z.string().max(200),
  /** The model list its server answered with last (shown while the server is not asked again). */
  models: z.array(z.string().max(200)).max(2000)
})
export type SavedProvider = z.infer<typeof SavedProviderSchema>

/** The provider fields a run reads, which switching to a saved provider replaces. */
export const ACTIVE_PROVIDER_FIELDS = ['provider', 'baseUrl', 'apiKeyEnv', 'model'] as const

/** The saved provider Settings' provider fields belong to, if any. */
export function activeSavedProvider(settings: { savedProviders: readonly SavedProvider[]; activeProviderId: string }): SavedProvider | undefined {
  return settings.activeProviderId === '' ? undefined : settings.savedProviders.find((saved) => saved.id === settings.activeProviderId)
}

export const SettingsSchema = z.object({
  provider: ProviderKindSchema,
  model: z.string(),
  /** Empty: the provider's default endpoint (openai, anthropic); otherwise an http(s) URL. */
  baseUrl: BaseUrlSchema,
  /** Name of the environment variable holding the key; the key itself never crosses the bridge. */
  apiKeyEnv: z.string(),
  autonomy: AutonomySchema,
  workspace: z.string(),
  language: LanguageSchema,
  maxIterations: z.number().int().min(1).max(100),
  /**
   * The model's context window in tokens (docs/architecture.md, "Context window"); 0: automatic —
   * what the server's model list says, else a conservative default per provider.
   */
  contextWindow: z.number().int().min(0).max(10_000_000).refine((n) => n === 0 || n >= 1024, '0 (automatic) or at least 1024 tokens'),
  /** A repeated fs read within a run is served from the cache this many seconds (docs/architecture.md, "Result cache and repeated writes"); 0: off. */
  readCacheTtlSec: z.number().int().min(0).max(3600),
  /** At most this many characters of saved memories are offered to each run (docs/tools.md, "Memory"); 0: none. */
  memoryContextChars: z.number().int().min(0).max(20_000),
  approvalTimeoutMs: z.number().int().min(1000),
  /** A scheduled run whose time passed while DeskClaw was closed: run once at start, or skip to the next (docs/tools.md, "Schedules"). */
  scheduleMissedRuns: MissedRunPolicySchema,
  /** At most this many sub-agents run at once (docs/tools.md, "Sub-agents"); more delegate calls wait. */
  delegateConcurrency: z.number().int().min(1).max(16),
  runtime: RuntimeChoiceSchema,
  /** The sandbox image for the docker runtime. */
  dockerImage: z.string().min(1),
  /**
   * Variables commands may see besides the default set (docs/runtimes.md, "The environment
   * allowlist"); never the model key's variable (settingsProblems).
   */
  allowedEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).max(100),
  /** Where run_code may run snippets (CodeStrictnessSchema). */
  codeStrictness: CodeStrictnessSchema,
  /** Check commands set per workspace folder, used by the lint tool before the project's manifests. */
  projectChecks: z
    .record(AbsolutePathSchema, ProjectCheckCommandsSchema)
    .refine((checks) => Object.keys(checks).length <= PROJECT_CHECKS_MAX, `at most ${PROJECT_CHECKS_MAX} workspaces`),
  /**
   * Whether the model is sent images tools return: `auto` guesses from the provider and model
   * name, `off` sends a text note instead (for text-only models, which refuse images).
   */
  imageInput: ImageInputSchema,
  /**
   * Tools told to the model in full, or compact (a short description and a schema without
   * annotations: fewer tokens per request); `auto` is compact when the context window is small.
   */
  toolDescriptions: ToolDescriptionsSchema,
  /** Screenshots are scaled down to at most this many pixels wide before the model sees them (docs/desktop.md). */
  screenshotMaxWidth: z.number().int().min(320).max(7680),
  /** Screenshots are reads and run without asking in supervised mode, unless this is on. */
  screenshotsAsk: z.boolean(),
  /** The global shortcut that stops desktop control (an Electron accelerator, e.g. Ctrl+Alt+Escape). */
  desktopStopShortcut: z
    .string()
    .min(1)
    .max(60)
    .refine((text) => parseAccelerator(text, false) !== null, 'not a shortcut (write e.g. Ctrl+Alt+Escape)'),
  /** Throwing the pointer into the top-left screen corner stops desktop control. */
  desktopFailSafe: z.boolean(),
  /**
   * Serial ports the user added by path — virtual ports (socat ptys), /dev/rfcomm0, COM7 — that the
   * OS's lister cannot show; listed while they exist (docs/devices.md).
   */
  serialPorts: z.array(z.string().min(1).max(4096)).max(50),
  /**
   * Chat apps the send-text task may drive, by profile id (docs/desktop.md, "Sending messages"):
   * off until the user turns one on; a non-empty allowlist limits the chats it may send to.
   */
  chatApps: z.record(
    z.string().regex(CHAT_APP_ID_PATTERN),
    z.object({ enabled: z.boolean(), allowlist: z.array(z.string().trim().min(1).max(200)).max(500) })
  ),
  /** Per chat: at least this many seconds between two sends. */
  chatSendMinIntervalSec: z.number().int().min(0).max(86_400),
  /** Per chat: at most this many sends in any hour. */
  chatSendPerHour: z.number().int().min(1).max(1000),
  /** How a sent message shows it came from DeskClaw: a visible suffix, an invisible marker, or nothing. */
  chatWatermark: ChatWatermarkSchema,
  /** The visible suffix (chatWatermark "suffix"). */
  chatWatermarkSuffix: z.string().max(100),
  /** A send-text task that has not finished in this many seconds is cancelled. */
  chatSendTimeoutSec: z.number().int().min(5).max(600),
  /**
   * Prices by model id (the id without the provider, as the chat header's picker shows it): a run
   * of a model listed here shows its cost next to its tokens; other runs show tokens only.
   */
  modelPrices: z
    .record(
      z.string().min(1).max(200).refine((id) => id.trim() === id, 'a model id without spaces around it'),
      ModelPriceSchema
    )
    .refine((prices) => Object.keys(prices).length <= MODEL_PRICES_MAX, `at most ${MODEL_PRICES_MAX} models`),
  /** The global shortcut that opens the quick-command palette (an Electron accelerator). */
  paletteShortcut: z
    .string()
    .min(1)
    .max(60)
    .refine((text) => parseAccelerator(text, false) !== null, 'not a shortcut (write e.g. CommandOrControl+Shift+Space)'),
  /** The UI's colours: follow the system's light/dark preference, or always light or dark. */
  theme: ThemeSchema,
  /** The browser the browser tools drive (docs/tools.md, "Browser"): empty finds Chromium, Chrome or Edge. */
  browserPath: z.string().max(4096),
  /**
   * Sites web_fetch and http_request may reach (docs/risk.md, "Network"): `example.com`, `*.example.com`,
   * an IP address or `*`, each allowed, asked about or denied; an allow that names a host exactly
   * also lets it be a private or loopback address.
   */
  webDomains: z.array(WebDomainRuleSchema).max(500),
  /** web_fetch and http_request read at most this many bytes of a response body. */
  webMaxBytes: z.number().int().min(1024).max(50 * 1024 * 1024),
  /** A web request that has not finished in this many seconds is stopped. */
  webTimeoutSec: z.number().int().min(1).max(300),
  /** Checkpoints of the workspace around each call that can change it (docs/checkpoints.md). */
  checkpoints: CheckpointSettingsSchema,
  /** Providers saved under a name to switch between (Settings → Model providers). */
  savedProviders: z
    .array(SavedProviderSchema)
    .max(SAVED_PROVIDERS_MAX)
    .refine((list) => new Set(list.map((saved) => saved.id)).size === list.length, 'each saved provider needs its own id'),
  /**
   * The saved provider whose values provider, baseUrl, apiKeyEnv and model hold (empty: none);
   * setting it copies that provider's values into them, and saving them updates it (main).
   */
  activeProviderId: z.string().max(64)
})
export type Settings = z.infer<typeof SettingsSchema>

/** What is wrong with each field of a settings candidate, by key (empty: nothing). */
export type SettingsProblems = Partial<Record<keyof Settings, string>>

/**
 * Every field checked with its own schema (SettingsSchema.shape), plus what one field cannot know
 * alone: an OpenAI-compatible server has no default endpoint, so its base URL may not be empty.
 * Main refuses a settings.update that leaves a problem in a field it changes; the settings form
 * shows the same problems at their fields while the user types.
 */
export function settingsProblems(candidate: Partial<Settings>): SettingsProblems {
  const problems: SettingsProblems = {}
  for (const key of Object.keys(candidate) as Array<keyof Settings>) {
    const schema = SettingsSchema.shape[key] as z.ZodType | undefined
    if (!schema) continue
    const parsed = schema.safeParse(candidate[key])
    if (!parsed.success) problems[key] = parsed.error.issues[0]?.message ?? 'invalid'
  }
  const provider = candidate.provider
  if (
    provider !== undefined &&
    candidate.baseUrl !== undefined &&
    problems.baseUrl === undefined &&
    candidate.baseUrl.trim() === '' &&
    !PROVIDERS_WITH_DEFAULT_BASE_URL.includes(provider)
  ) {
    problems.baseUrl = 'required for an OpenAI-compatible server (e.g. http://localhost:11434/v1 for Ollama)'
  }
  // The model's key never reaches a command (docs/runtimes.md): its variable cannot be listed.
  if (candidate.allowedEnv !== undefined && provider !== undefined && problems.allowedEnv === undefined) {
    const keyEnv = modelKeyEnvOf({ provider, apiKeyEnv: candidate.apiKeyEnv })
    if (candidate.allowedEnv.includes(keyEnv)) problems.allowedEnv = `${keyEnv} holds the model's API key, which never reaches a command`
  }
  return problems
}

/** The longest API key accepted (hosted keys are 50–200 characters; some gateway tokens are longer). */
export const API_KEY_MAX_LENGTH = 4096

/**
 * An API key as pasted: trimmed, then non-empty printable ASCII without spaces or line breaks (a
 * line break in a header value would fail every request, and the error would quote the value).
 * The messages never repeat the key.
 */
export const ApiKeySchema = z
  .string()
  .trim()
  .min(1, 'The API key is empty: paste the key.')
  .max(API_KEY_MAX_LENGTH, `An API key is at most ${API_KEY_MAX_LENGTH} characters.`)
  .regex(/^[\x21-\x7e]+$/, 'An API key is letters, digits and punctuation, without spaces or line breaks.')

/** Why keys cannot be stored here (the UI explains each; `why` is the same in English). */
export const SecretsUnavailableReasonSchema = z.enum(['no-safe-storage', 'encryption-unavailable', 'no-keyring', 'failed'])
export type SecretsUnavailableReason = z.infer<typeof SecretsUnavailableReasonSchema>

/** Whether API keys can be stored in this process, and for which providers one is (never the key). */
export const SecretsStatusSchema = z.object({
  available: z.boolean(),
  why: z.string().optional(),
  reason: SecretsUnavailableReasonSchema.optional(),
  /** The secrets file cannot be read (damaged): saving or removing a key starts a new one. */
  problem: z.string().optional(),
  providers: z.object({ openai: z.boolean(), anthropic: z.boolean(), 'openai-compatible': z.boolean() }),
  /** Whether a key is stored, by saved provider id (Settings.savedProviders). */
  saved: z.record(z.string(), z.boolean()).optional()
})
export type SecretsStatus = z.infer<typeof SecretsStatusSchema>

export const LocalServerSchema = z.object({ name: z.string(), baseUrl: z.string(), models: z.array(z.string()) })
export type LocalServer = z.infer<typeof LocalServerSchema>

/**
 * Which server to ask (providers.listModels, providers.testConnection); each field left out is taken
 * from Settings. The key is read in main from the named environment variable and never crosses the bridge.
 */
export const ProviderTargetSchema = z.object({
  provider: ProviderKindSchema.optional(),
  baseUrl: BaseUrlSchema.optional(),
  apiKeyEnv: z.string().max(200).optional()
})
export type ProviderTarget = z.infer<typeof ProviderTargetSchema>

export const TestConnectionResultSchema = z.discriminatedUnion('ok', [
  /**
   * `checked`: what answered — `reply`, the model's one-token reply; `models`, the server's model list
   * (no model chosen yet: it reached the server and, where the provider wants one, the key was
   * accepted), with how many models it lists.
   */
  z.object({
    ok: z.literal(true),
    checked: z.enum(['reply', 'models']).optional(),
    model: z.string(),
    models: z.number().int().nonnegative().optional(),
    latencyMs: z.number()
  }),
  /** The error exactly as a run would report it (describeModelError). */
  z.object({
    ok: z.literal(false),
    error: z.object({
      code: z.enum(ErrorCodes),
      message: z.string(),
      /** The message code and parameters the UI translates (src/shared/errors.ts, ErrorTextKeys). */
      key: z.enum(ErrorTextKeys).optional(),
      params: z.record(z.string(), z.union([z.string(), z.number()])).optional()
    })
  })
])
export type TestConnectionResult = z.infer<typeof TestConnectionResultSchema>

export const settingsCalls = {
  /** Model servers running on this machine (Ollama, LM Studio) with their models, for the first-run setup. */
  'providers.detectLocal': defineCall(z.object({}), z.object({ servers: z.array(LocalServerSchema) })),
  /** The models the server lists (OpenAI-compatible /models, Ollama /api/tags, Anthropic /v1/models); an unreachable or refusing server is an error. */
  'providers.listModels': defineCall(ProviderTargetSchema, z.object({ models: z.array(z.string()) })),
  /**
   * A one-token generation with `model` (default: Settings') on the target: ok with the latency,
   * or the error a run would show; with no model (an empty `model`), the model list instead.
   * Answers `ok: false` rather than failing the call.
   */
  'providers.testConnection': defineCall(
    ProviderTargetSchema.extend({ model: z.string().max(200).optional() }),
    TestConnectionResultSchema
  ),
  'settings.get': defineCall(z.object({}), SettingsSchema),
  'settings.update': defineCall(SettingsSchema.partial(), SettingsSchema),
  /** Whether a key is stored per provider — never the key — and whether keys can be stored here at all. */
  'secrets.status': defineCall(z.object({}), SecretsStatusSchema),
  /** Encrypts and stores a pasted key for a provider, or for one saved provider (its id) only; the key never comes back over the bridge. */
  'secrets.setApiKey': defineCall(z.object({ provider: ProviderKindSchema, key: ApiKeySchema, savedProviderId: SavedProviderIdSchema.optional() }), SecretsStatusSchema),
  /** Removes the stored key of a provider (of a saved provider, with its id). */
  'secrets.deleteApiKey': defineCall(z.object({ provider: ProviderKindSchema, savedProviderId: SavedProviderIdSchema.optional() }), SecretsStatusSchema)
} as const
