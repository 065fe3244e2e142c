/**
 * The settings form's draft (the fields of the sections saved by the form's Save button, numbers as
 * typed) and what it stands for: the Settings it would save and what is wrong with each field,
 * checked with SettingsSchema's own field schemas and settingsProblems — what main checks a
 * settings.update with.
 */
import type {
  Autonomy,
  CodeStrictness,
  ImageInput,
  Language,
  ProviderKind,
  RuntimeChoice,
  Settings,
  ToolDescriptions
} from '../../../../shared/bridge'
// Values, not only types: the form checks each field with the very schema main checks it with.
import { modelKeyEnvOf, SettingsSchema, settingsProblems } from '../../../../shared/bridge/settings'
import type { Translator } from '../../i18n'
import { allowedEnvNameProblem } from './AllowedEnvField'
import { type ChatDraft, evaluateChatDraft, toChatDraft } from './ChatAppsSection'
import { parseInteger } from './fields'
import { evaluatePricesDraft, type PricesDraft, toPricesDraft } from './model-prices'

/** The form's fields as typed (numbers as text); the chat apps' part is ChatAppsSection's, the prices ModelPricesSection's. */
export interface Draft extends ChatDraft, PricesDraft {
  provider: ProviderKind
  model: string
  baseUrl: string
  apiKeyEnv: string
  autonomy: Autonomy
  workspace: string
  language: Language
  maxIterations: string
  approvalTimeoutSec: string
  runtime: RuntimeChoice
  codeStrictness: CodeStrictness
  dockerImage: string
  browserPath: string
  allowedEnv: readonly string[]
  /** A name typed in the allowlist's box, not added yet (saved too when valid). */
  allowedEnvPending: string
  imageInput: ImageInput
  toolDescriptions: ToolDescriptions
  contextWindow: string
  screenshotMaxWidth: string
  screenshotsAsk: boolean
  desktopStopShortcut: string
  paletteShortcut: string
  desktopFailSafe: boolean
}

export function toDraft(settings: Settings): Draft {
  return {
    provider: settings.provider,
    model: settings.model,
    baseUrl: settings.baseUrl,
    apiKeyEnv: settings.apiKeyEnv,
    autonomy: settings.autonomy,
    workspace: settings.workspace,
    language: settings.language,
    maxIterations: String(settings.maxIterations),
    approvalTimeoutSec: String(Math.round(settings.approvalTimeoutMs / 1000)),
    runtime: settings.runtime,
    codeStrictness: settings.codeStrictness,
    dockerImage: settings.dockerImage,
    browserPath: settings.browserPath,
    allowedEnv: settings.allowedEnv,
    allowedEnvPending: '',
    imageInput: settings.imageInput,
    toolDescriptions: settings.toolDescriptions,
    contextWindow: String(settings.contextWindow),
    screenshotMaxWidth: String(settings.screenshotMaxWidth),
    screenshotsAsk: settings.screenshotsAsk,
    desktopStopShortcut: settings.desktopStopShortcut,
    paletteShortcut: settings.paletteShortcut,
    desktopFailSafe: settings.desktopFailSafe,
    ...toChatDraft(settings),
    ...toPricesDraft(settings)
  }
}

/** A draft as text to compare with the saved settings: price rows' keys are React's, made anew each time, not settings. */
export function comparableDraft(draft: Draft): string {
  return JSON.stringify({ ...draft, modelPrices: draft.modelPrices.map(({ key: _key, ...row }) => row) })
}

/** What is wrong with each field, by Draft key (a chat app's allowlist at `chatApp.<id>`). */
export type DraftErrors = Partial<Record<keyof Draft | `chatApp.${string}`, string>>

/**
 * The settings a draft stands for, and what is wrong with each field (translated), checked with
 * SettingsSchema's own field schemas and settingsProblems — what main checks a settings.update with.
 */
export function evaluateDraft(draft: Draft, settings: Settings, t: Translator): { next: Settings; errors: DraftErrors } {
  const errors: DraftErrors = {}
  const shape = SettingsSchema.shape
  const integer = (key: keyof Draft, label: string, text: string, min: number, max: number, check: (n: number) => boolean) => {
    const value = parseInteger(text, min, max)
    if (value === null || !check(value)) errors[key] = t('settings.invalidInteger', { field: label, min, max })
    return value
  }
  const maxIterations = integer('maxIterations', t('settings.maxIterations'), draft.maxIterations, 1, 100, (n) => shape.maxIterations.safeParse(n).success)
  const timeoutSec = integer('approvalTimeoutSec', t('settings.approvalTimeout'), draft.approvalTimeoutSec, 1, 86_400, (n) =>
    shape.approvalTimeoutMs.safeParse(n * 1000).success
  )
  // 0 (automatic) or a real window: the schema's own check, with words that name both.
  const contextWindow = parseInteger(draft.contextWindow, 0, 10_000_000)
  if (contextWindow === null || !shape.contextWindow.safeParse(contextWindow).success) errors.contextWindow = t('settings.contextWindowInvalid')
  const screenshotMaxWidth = integer('screenshotMaxWidth', t('settings.screenshotMaxWidth'), draft.screenshotMaxWidth, 320, 7680, (n) =>
    shape.screenshotMaxWidth.safeParse(n).success
  )
  const modelKeyEnv = modelKeyEnvOf({ provider: draft.provider, apiKeyEnv: draft.apiKeyEnv })
  const pendingEnv = draft.allowedEnvPending.trim()
  const pendingProblem = allowedEnvNameProblem(pendingEnv, draft.allowedEnv, modelKeyEnv, t)
  if (pendingProblem !== undefined) errors.allowedEnvPending = pendingProblem
  const allowedEnv = pendingEnv !== '' && pendingProblem === undefined ? [...draft.allowedEnv, pendingEnv] : [...draft.allowedEnv]
  const chat = evaluateChatDraft(draft, settings, t)
  Object.assign(errors, chat.errors)
  const prices = evaluatePricesDraft(draft, t)
  Object.assign(errors, prices.errors)
  const next: Settings = {
    provider: draft.provider,
    model: draft.model.trim(),
    baseUrl: draft.baseUrl.trim(),
    apiKeyEnv: draft.apiKeyEnv.trim(),
    autonomy: draft.autonomy,
    workspace: draft.workspace.trim(),
    language: draft.language,
    maxIterations: maxIterations ?? settings.maxIterations,
    contextWindow: contextWindow !== null && errors.contextWindow === undefined ? contextWindow : settings.contextWindow,
    // Not in the panel: kept as saved (docs/architecture.md, "Result cache and repeated writes").
    readCacheTtlSec: settings.readCacheTtlSec,
    approvalTimeoutMs: timeoutSec === null ? settings.approvalTimeoutMs : timeoutSec * 1000,
    // Set in the Schedules panel.
    scheduleMissedRuns: settings.scheduleMissedRuns,
    delegateConcurrency: settings.delegateConcurrency,
    runtime: draft.runtime,
    codeStrictness: draft.codeStrictness,
    // Edited in the Project checks section, which saves at once.
    projectChecks: settings.projectChecks,
    dockerImage: draft.dockerImage.trim() || settings.dockerImage,
    browserPath: draft.browserPath.trim(),
    allowedEnv,
    imageInput: draft.imageInput,
    toolDescriptions: draft.toolDescriptions,
    screenshotMaxWidth: screenshotMaxWidth ?? settings.screenshotMaxWidth,
    screenshotsAsk: draft.screenshotsAsk,
    desktopStopShortcut: draft.desktopStopShortcut.trim(),
    desktopFailSafe: draft.desktopFailSafe,
    paletteShortcut: draft.paletteShortcut.trim(),
    // Edited in the Devices panel, not here: kept as it is.
    serialPorts: settings.serialPorts,
    // Edited in the Memory panel: kept as it is.
    memoryContextChars: settings.memoryContextChars,
    // Edited in the Web section (domain rules) and kept as they are here.
    webDomains: settings.webDomains,
    webMaxBytes: settings.webMaxBytes,
    webTimeoutSec: settings.webTimeoutSec,
    // Edited in the Checkpoints section and kept as they are here.
    checkpoints: settings.checkpoints,
    // Edited in the saved providers' list (SavedProvidersSection), which saves at once.
    savedProviders: settings.savedProviders,
    activeProviderId: settings.activeProviderId,
    // ThemeField applies and saves the theme at once, outside this form.
    theme: settings.theme,
    ...chat.next,
    ...prices.next
  }
  const problems = settingsProblems(next)
  if (problems.baseUrl !== undefined) {
    errors.baseUrl = shape.baseUrl.safeParse(next.baseUrl).success ? t('settings.baseUrlRequired') : t('settings.invalidUrl')
  }
  if (problems.allowedEnv !== undefined && pendingProblem === undefined) {
    const bad = allowedEnv.find((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    errors.allowedEnv =
      bad !== undefined
        ? t('settings.invalidEnvName', { name: bad })
        : allowedEnv.includes(modelKeyEnv)
          ? t('settings.allowedEnvModelKey', { name: modelKeyEnv })
          : t('settings.invalidValue', { message: problems.allowedEnv })
  }
  if (problems.desktopStopShortcut !== undefined) errors.desktopStopShortcut = t('settings.invalidShortcut', { value: next.desktopStopShortcut })
  if (problems.paletteShortcut !== undefined) errors.paletteShortcut = t('settings.invalidShortcut', { value: next.paletteShortcut })
  // Whatever else the schema refuses, in its own words, at its field.
  const fieldOf: Partial<Record<keyof Settings, keyof Draft>> = {
    provider: 'provider',
    model: 'model',
    apiKeyEnv: 'apiKeyEnv',
    workspace: 'workspace',
    language: 'language',
    dockerImage: 'dockerImage',
    browserPath: 'browserPath',
    runtime: 'runtime',
    imageInput: 'imageInput',
    toolDescriptions: 'toolDescriptions',
    autonomy: 'autonomy'
  }
  for (const [key, message] of Object.entries(problems) as Array<[keyof Settings, string]>) {
    const field = fieldOf[key]
    if (field && errors[field] === undefined) errors[field] = t('settings.invalidValue', { message })
  }
  return { next, errors }
}
