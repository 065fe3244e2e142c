import { type FormEvent, type MutableRefObject, useEffect, useId, useMemo, useRef, useState } from 'react'
import type {
  Autonomy,
  CodeStrictness,
  ImageInput,
  Language,
  ProviderKind,
  ProviderTarget,
  RuntimeChoice,
  Settings,
  TestConnectionResult,
  ToolDescriptions
} from '../../../../shared/bridge'
// Values, not only types: the form checks each field with the very schema main checks it with.
import {
  activeSavedProvider,
  CONVENTIONAL_API_KEY_ENV,
  modelKeyEnvOf,
  PROVIDERS_WITH_DEFAULT_BASE_URL,
  SettingsSchema,
  settingsProblems
} from '../../../../shared/bridge/settings'
import { getDeskclawApi } from '../../bridge'
import { languages, type Translator, useT } from '../../i18n'
import { useSettingsStore } from '../../stores'
import { Dialog, Spinner, XIcon } from '../common'
import { ThemeField } from '../theme'
import { AllowedEnvField, allowedEnvNameProblem } from './AllowedEnvField'
import { ApiKeyField } from './ApiKeyField'
import { type ChatDraft, ChatAppsSection, evaluateChatDraft, toChatDraft } from './ChatAppsSection'
import { CheckField, describedBy, Field, fieldAria, parseInteger } from './fields'
import { McpServersSection } from './McpServersSection'
import { WebDomainsSection } from './WebDomainsSection'
import { ModelCombobox } from './ModelCombobox'
import { evaluatePricesDraft, type PricesDraft, toPricesDraft } from './model-prices'
import { ModelPricesSection } from './ModelPricesSection'
import { SettingsNav, SettingsPage, type SettingsSectionId, useSettingsSection } from './sections'
import { CheckpointsSection } from './CheckpointsSection'
import { ProjectChecksSection } from './ProjectChecksSection'
import { SavedProvidersSection } from './SavedProvidersSection'
import { UnsavedChangesDialog } from './UnsavedChangesDialog'
import { useServerModels } from './server-models'

const PROVIDERS: readonly ProviderKind[] = ['openai', 'anthropic', 'openai-compatible']
const AUTONOMY: readonly Autonomy[] = ['readonly', 'supervised', 'full']
const RUNTIMES: readonly RuntimeChoice[] = ['auto', 'docker', 'bwrap', 'native']
const CODE_STRICTNESS: readonly CodeStrictness[] = ['strict', 'standard', 'trusted']
const IMAGE_INPUT: readonly ImageInput[] = ['auto', 'on', 'off']
const TOOL_DESCRIPTIONS: readonly ToolDescriptions[] = ['auto', 'full', 'compact']

/** The form's fields as typed (numbers as text); the chat apps' part is ChatAppsSection's, the prices ModelPricesSection's. */
interface Draft extends ChatDraft, PricesDraft {
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

function toDraft(settings: Settings): Draft {
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
function comparableDraft(draft: Draft): string {
  return JSON.stringify({ ...draft, modelPrices: draft.modelPrices.map(({ key: _key, ...row }) => row) })
}

/** What is wrong with each field, by Draft key (a chat app's allowlist at `chatApp.<id>`). */
type DraftErrors = Partial<Record<keyof Draft | `chatApp.${string}`, string>>

/**
 * The settings a draft stands for, and what is wrong with each field (translated), checked with
 * SettingsSchema's own field schemas and settingsProblems — what main checks a settings.update with.
 */
function evaluateDraft(draft: Draft, settings: Settings, t: Translator): { next: Settings; errors: DraftErrors } {
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

/** `value`, once it has stayed the same for `ms` (asking a server on every keystroke helps nobody). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

/** Test connection: a one-token request to what the form shows (saved or not); the latency, or the error a run would show. */
function TestConnection({ target, disabled }: { target: ProviderTarget & { model: string }; disabled: boolean }) {
  const t = useT()
  const [testing, setTesting] = useState(false)
  const [result, setResult] = useState<{ key: string; value: TestConnectionResult } | null>(null)
  const key = JSON.stringify(target)
  const shown = result?.key === key ? result.value : null // a result about other values is not shown

  const run = async () => {
    setTesting(true)
    const answer = await getDeskclawApi().invoke('providers.testConnection', target)
    setTesting(false)
    setResult({ key, value: answer.ok ? answer.data : { ok: false, error: answer.error } })
  }

  return (
    <div className="test-connection">
      <button type="button" className="btn btn-small" data-testid="settings-test-connection" disabled={disabled || testing} onClick={() => void run()}>
        {testing && <Spinner size={12} />}
        {testing ? t('settings.testing') : t('settings.testConnection')}
      </button>
      <div className="test-connection-result" role="status" aria-live="polite">
        {shown && !testing && (
          <span className={shown.ok ? 'test-ok' : 'test-failed'} data-testid="settings-test-result" data-ok={String(shown.ok)} data-checked={shown.ok ? (shown.checked ?? 'reply') : undefined}>
            {!shown.ok
              ? t('settings.testFailed', { error: t.error(shown.error) })
              : shown.checked === 'models'
                ? t.count('settings.testModels', shown.models ?? 0, { ms: shown.latencyMs })
                : t('settings.testOk', { model: shown.model, ms: shown.latencyMs })}
          </span>
        )}
      </div>
    </div>
  )
}

interface SettingsFormProps {
  settings: Settings
  onClose(): void
  /** What the panel's close (×, Esc, the backdrop) does: the form asks first when it holds unsaved changes. */
  closeRequest: MutableRefObject<() => void>
  /** Where to open: the section scrolled into view and its first control focused. */
  section?: SettingsSection | null
}

/** A Settings section another screen can open at (the chat header's autonomy chip opens Safety): see sections.tsx. */
export type SettingsSection = SettingsSectionId

function SettingsForm({ settings, onClose, closeRequest, section }: SettingsFormProps) {
  const t = useT()
  const id = useId()
  const update = useSettingsStore((s) => s.update)
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings))
  const [saving, setSaving] = useState(false)
  const [saved, setSaved] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const { next, errors } = useMemo(() => evaluateDraft(draft, settings, t), [draft, settings, t])
  const invalid = Object.keys(errors).length > 0
  const dirty = useMemo(() => comparableDraft(draft) !== comparableDraft(toDraft(settings)), [draft, settings])
  const [askingToClose, setAskingToClose] = useState(false)
  const safetyRef = useRef<HTMLElement>(null)
  const [active, choose] = useSettingsSection(section)
  useEffect(() => {
    if (section !== 'safety' || !safetyRef.current) return
    const el = safetyRef.current
    // After the dialog's own mount effect, which focuses the dialog itself.
    const frame = requestAnimationFrame(() => {
      el.scrollIntoView({ block: 'start' })
      el.querySelector<HTMLInputElement>('input:checked')?.focus()
    })
    return () => cancelAnimationFrame(frame)
  }, [section])
  closeRequest.current = dirty ? () => setAskingToClose(true) : onClose

  // The model list and the connection test ask the server the form shows, once its URL is valid.
  const serverTarget = useSettled<ProviderTarget | null>(
    useMemo(
      () => (errors.baseUrl === undefined ? { provider: next.provider, baseUrl: next.baseUrl, apiKeyEnv: next.apiKeyEnv } : null),
      [errors.baseUrl, next.provider, next.baseUrl, next.apiKeyEnv]
    ),
    400
  )
  const serverModels = useServerModels(serverTarget)
  const activeSaved = activeSavedProvider(settings)
  // The active saved provider keeps the model list its server answered with last (shown until the server answers again).
  const listedModels = serverModels.models
  useEffect(() => {
    if (!activeSaved || listedModels.length === 0 || !serverTarget) return
    const sameServer =
      serverTarget.provider === activeSaved.provider && serverTarget.baseUrl === activeSaved.baseUrl && serverTarget.apiKeyEnv === activeSaved.apiKeyEnv
    if (!sameServer || JSON.stringify(listedModels) === JSON.stringify(activeSaved.models)) return
    void update({ savedProviders: settings.savedProviders.map((saved) => (saved.id === activeSaved.id ? { ...saved, models: [...listedModels] } : saved)) })
  }, [activeSaved, listedModels, serverTarget, settings.savedProviders, update])
  /** After the saved providers' list changed what a run reads (a switch), the form shows it. */
  const takeProvider = (saved: Settings) => {
    setDraft((d) => ({ ...d, provider: saved.provider, baseUrl: saved.baseUrl, apiKeyEnv: saved.apiKeyEnv, model: saved.model }))
  }
  const providerInvalid = [errors.provider, errors.baseUrl, errors.apiKeyEnv, errors.model].some((problem) => problem !== undefined)

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }))
    setSaved(false)
    setError(null)
  }
  const aria = (field: keyof Draft, htmlFor: string, hint = true) => fieldAria(htmlFor, hint, errors[field])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    await save()
  }

  /** Saves what changed; true when it was saved. */
  const save = async (): Promise<boolean> => {
    setError(null)
    if (invalid) {
      setError(t('settings.fixFields'))
      return false
    }
    // Send only what changed, so a concurrent change elsewhere is not overwritten.
    const patch: Partial<Settings> = {}
    for (const key of Object.keys(next) as Array<keyof Settings>) {
      if (JSON.stringify(next[key]) !== JSON.stringify(settings[key])) (patch as Record<string, unknown>)[key] = next[key]
    }
    setSaving(true)
    const result = await update(patch)
    setSaving(false)
    if (result.ok) {
      setDraft(toDraft(result.data))
      setSaved(true)
      return true
    }
    const label = t(`error.${result.error.code}`)
    setError(result.error.message ? `${label}: ${result.error.message}` : label)
    return false
  }

  const modelStatus = errors.baseUrl !== undefined ? null : serverModels.loading ? (
    <span className="model-list-status" data-testid="settings-model-status" data-state="loading">
      <Spinner size={11} /> {t('settings.modelListing')}
    </span>
  ) : serverModels.error ? (
    <span className="model-list-status failed" data-testid="settings-model-status" data-state="error">
      {t('settings.modelListFailed', { error: t.error(serverModels.error) })}{' '}
      <button type="button" className="link-button" onClick={serverModels.reload}>
        {t('settings.modelListRefresh')}
      </button>
    </span>
  ) : serverTarget && errors.baseUrl === undefined ? (
    <span className="model-list-status" data-testid="settings-model-status" data-state="ready">
      {t.count('settings.modelCount', serverModels.models.length)}{' '}
      <button type="button" className="link-button" onClick={serverModels.reload}>
        {t('settings.modelListRefresh')}
      </button>
    </span>
  ) : null

  return (
    <form className="settings-form" onSubmit={(event) => void submit(event)} noValidate>
      <div className="settings-layout">
      <SettingsNav active={active} onChoose={choose} />
      <div className="settings-scroll">
        <SettingsPage id="model" active={active}>
        <section>
          <h3>{t('settings.section.model')}</h3>
          <Field label={t('settings.provider')} htmlFor={`${id}-provider`}>
            <select
              id={`${id}-provider`}
              className="text-input"
              data-testid="settings-provider"
              value={draft.provider}
              onChange={(event) => set('provider', event.target.value as ProviderKind)}
            >
              {PROVIDERS.map((p) => (
                <option key={p} value={p}>
                  {t(`provider.${p}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('settings.baseUrl')} hint={t('settings.baseUrlHint')} htmlFor={`${id}-base`} field="baseUrl" error={errors.baseUrl}>
            <input
              id={`${id}-base`}
              className="text-input mono"
              data-testid="settings-base-url"
              value={draft.baseUrl}
              spellCheck={false}
              // Empty means the provider's own endpoint where it has one: the placeholder says so (issue 22, item 9).
              placeholder={PROVIDERS_WITH_DEFAULT_BASE_URL.includes(draft.provider) ? t('settings.baseUrlDefault') : 'http://localhost:11434/v1'}
              onChange={(event) => set('baseUrl', event.target.value)}
              {...aria('baseUrl', `${id}-base`)}
            />
          </Field>
          <ApiKeyField provider={draft.provider} saved={activeSaved} onChange={serverModels.reload} />
          <Field label={t('settings.apiKeyEnv')} hint={t('settings.apiKeyEnvHint')} htmlFor={`${id}-key`} field="apiKeyEnv" error={errors.apiKeyEnv}>
            <input
              id={`${id}-key`}
              className="text-input mono"
              data-testid="settings-api-key-env"
              value={draft.apiKeyEnv}
              spellCheck={false}
              // The variable this provider reads when the field is empty.
              placeholder={CONVENTIONAL_API_KEY_ENV[draft.provider]}
              onChange={(event) => set('apiKeyEnv', event.target.value)}
              {...aria('apiKeyEnv', `${id}-key`)}
            />
          </Field>
          <Field
            label={t('settings.model')}
            hint={
              <>
                {t('settings.modelHint')} {modelStatus}
              </>
            }
            htmlFor={`${id}-model`}
            field="model"
            error={errors.model}
          >
            <ModelCombobox
              id={`${id}-model`}
              testId="settings-model"
              value={draft.model}
              onChange={(value) => set('model', value)}
              models={serverModels.models.length > 0 ? serverModels.models : (activeSaved?.models ?? [])}
              current={draft.model.trim()}
              toggleLabel={t('settings.modelToggle')}
              describedBy={describedBy(`${id}-model`, true, errors.model)}
              invalid={errors.model !== undefined}
            />
          </Field>
          <TestConnection
            target={{ provider: next.provider, baseUrl: next.baseUrl, apiKeyEnv: next.apiKeyEnv, model: next.model }}
            disabled={errors.baseUrl !== undefined || errors.apiKeyEnv !== undefined || errors.model !== undefined}
          />
          <Field label={t('settings.imageInput')} hint={t('settings.imageInputHint')} htmlFor={`${id}-images`}>
            <select
              id={`${id}-images`}
              className="text-input"
              data-testid="settings-image-input"
              value={draft.imageInput}
              onChange={(event) => set('imageInput', event.target.value as ImageInput)}
            >
              {IMAGE_INPUT.map((choice) => (
                <option key={choice} value={choice}>
                  {t(`imageInput.${choice}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('settings.toolDescriptions')} hint={t('settings.toolDescriptionsHint')} htmlFor={`${id}-tool-descriptions`}>
            <select
              id={`${id}-tool-descriptions`}
              className="text-input"
              data-testid="settings-tool-descriptions"
              value={draft.toolDescriptions}
              onChange={(event) => set('toolDescriptions', event.target.value as ToolDescriptions)}
            >
              {TOOL_DESCRIPTIONS.map((choice) => (
                <option key={choice} value={choice}>
                  {t(`toolDescriptions.${choice}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('settings.contextWindow')} hint={t('settings.contextWindowHint')} htmlFor={`${id}-context-window`} field="contextWindow" error={errors.contextWindow}>
            <input
              id={`${id}-context-window`}
              className="text-input"
              data-testid="settings-context-window"
              {...aria('contextWindow', `${id}-context-window`)}
              inputMode="numeric"
              value={draft.contextWindow}
              onChange={(event) => set('contextWindow', event.target.value)}
            />
          </Field>
        </section>
        <SavedProvidersSection
          settings={settings}
          current={providerInvalid ? null : { provider: next.provider, baseUrl: next.baseUrl, apiKeyEnv: next.apiKeyEnv, model: next.model }}
          onChanged={takeProvider}
        />
        </SettingsPage>

        <SettingsPage id="safety" active={active}>
        <section ref={safetyRef} data-testid="settings-section-safety">
          <h3>{t('settings.section.safety')}</h3>
          <fieldset className="field">
            <legend className="field-label">{t('settings.autonomy')}</legend>
            <div className="radio-cards">
              {AUTONOMY.map((level) => (
                <label key={level} className={`radio-card${draft.autonomy === level ? ' checked' : ''}`}>
                  <input
                    type="radio"
                    name={`${id}-autonomy`}
                    value={level}
                    data-testid={`settings-autonomy-${level}`}
                    checked={draft.autonomy === level}
                    onChange={() => set('autonomy', level)}
                  />
                  <span className="radio-card-title">{t(`autonomy.${level}`)}</span>
                  <span className="radio-card-hint">{t(`autonomy.${level}.hint`)}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="field-row">
            <Field label={t('settings.runtime')} hint={t(`runtime.${draft.runtime}.hint`)} htmlFor={`${id}-runtime`}>
              <select
                id={`${id}-runtime`}
                className="text-input"
                data-testid="settings-runtime"
                value={draft.runtime}
                onChange={(event) => set('runtime', event.target.value as RuntimeChoice)}
              >
                {RUNTIMES.map((choice) => (
                  <option key={choice} value={choice}>
                    {t(`runtime.${choice}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={t('settings.codeStrictness')} hint={t(`codeStrictness.${draft.codeStrictness}.hint`)} htmlFor={`${id}-code-strictness`}>
              <select
                id={`${id}-code-strictness`}
                className="text-input"
                data-testid="settings-code-strictness"
                value={draft.codeStrictness}
                onChange={(event) => set('codeStrictness', event.target.value as CodeStrictness)}
              >
                {CODE_STRICTNESS.map((level) => (
                  <option key={level} value={level}>
                    {t(`codeStrictness.${level}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={t('settings.dockerImage')} hint={t('settings.dockerImageHint')} htmlFor={`${id}-image`} field="dockerImage" error={errors.dockerImage}>
              <input
                id={`${id}-image`}
                className="text-input mono"
                data-testid="settings-docker-image"
                {...aria('dockerImage', `${id}-image`)}
                value={draft.dockerImage}
                spellCheck={false}
                onChange={(event) => set('dockerImage', event.target.value)}
              />
            </Field>
            <Field label={t('settings.browserPath')} hint={t('settings.browserPathHint')} htmlFor={`${id}-browser`} field="browserPath" error={errors.browserPath}>
              <input
                id={`${id}-browser`}
                className="text-input mono"
                data-testid="settings-browser-path"
                {...aria('browserPath', `${id}-browser`)}
                value={draft.browserPath}
                spellCheck={false}
                autoComplete="off"
                placeholder="/usr/bin/chromium"
                onChange={(event) => set('browserPath', event.target.value)}
              />
            </Field>
          </div>
          <AllowedEnvField
            names={draft.allowedEnv}
            pending={draft.allowedEnvPending}
            modelKeyEnv={modelKeyEnvOf({ provider: draft.provider, apiKeyEnv: draft.apiKeyEnv })}
            listError={errors.allowedEnv}
            onChange={(names, pending) => {
              set('allowedEnv', names)
              set('allowedEnvPending', pending)
            }}
          />
          <Field label={t('settings.workspace')} hint={t('settings.workspaceHint')} htmlFor={`${id}-ws`} field="workspace" error={errors.workspace}>
            <input
              id={`${id}-ws`}
              className="text-input mono"
              data-testid="settings-workspace"
                {...aria('workspace', `${id}-ws`)}
              value={draft.workspace}
              spellCheck={false}
              onChange={(event) => set('workspace', event.target.value)}
            />
          </Field>
          <div className="field-row">
            <Field label={t('settings.maxIterations')} hint={t('settings.maxIterationsHint')} htmlFor={`${id}-iter`} field="maxIterations" error={errors.maxIterations}>
              <input
                id={`${id}-iter`}
                className="text-input"
                data-testid="settings-max-iterations"
                {...aria('maxIterations', `${id}-iter`)}
                inputMode="numeric"
                value={draft.maxIterations}
                onChange={(event) => set('maxIterations', event.target.value)}
              />
            </Field>
            <Field
              label={t('settings.approvalTimeout')}
              hint={t('settings.approvalTimeoutHint')}
              htmlFor={`${id}-timeout`}
              field="approvalTimeoutSec"
              error={errors.approvalTimeoutSec}
            >
              <input
                id={`${id}-timeout`}
                className="text-input"
                data-testid="settings-approval-timeout"
                {...aria('approvalTimeoutSec', `${id}-timeout`)}
                inputMode="numeric"
                value={draft.approvalTimeoutSec}
                onChange={(event) => set('approvalTimeoutSec', event.target.value)}
              />
            </Field>
          </div>
        </section>
        </SettingsPage>

        <SettingsPage id="desktop" active={active}>
        <section>
          <h3>{t('settings.section.desktop')}</h3>
          <div className="field-row">
            <Field
              label={t('settings.screenshotMaxWidth')}
              hint={t('settings.screenshotMaxWidthHint')}
              htmlFor={`${id}-shot-width`}
              field="screenshotMaxWidth"
              error={errors.screenshotMaxWidth}
            >
              <input
                id={`${id}-shot-width`}
                className="text-input"
                data-testid="settings-screenshot-max-width"
                {...aria('screenshotMaxWidth', `${id}-shot-width`)}
                type="number"
                min={320}
                max={7680}
                step={1}
                value={draft.screenshotMaxWidth}
                onChange={(event) => set('screenshotMaxWidth', event.target.value)}
              />
            </Field>
            <Field
              label={t('settings.desktopStopShortcut')}
              hint={t('settings.desktopStopShortcutHint')}
              htmlFor={`${id}-stop-shortcut`}
              field="desktopStopShortcut"
              error={errors.desktopStopShortcut}
            >
              <input
                id={`${id}-stop-shortcut`}
                className="text-input mono"
                data-testid="settings-desktop-stop-shortcut"
                {...aria('desktopStopShortcut', `${id}-stop-shortcut`)}
                value={draft.desktopStopShortcut}
                maxLength={60}
                spellCheck={false}
                autoComplete="off"
                placeholder="Ctrl+Alt+Escape"
                onChange={(event) => set('desktopStopShortcut', event.target.value)}
              />
            </Field>
            <Field label={t('settings.paletteShortcut')} hint={t('settings.paletteShortcutHint')} htmlFor={`${id}-palette-shortcut`} field="paletteShortcut" error={errors.paletteShortcut}>
              <input
                id={`${id}-palette-shortcut`}
                className="text-input mono"
                data-testid="settings-palette-shortcut"
                {...aria('paletteShortcut', `${id}-palette-shortcut`)}
                value={draft.paletteShortcut}
                maxLength={60}
                spellCheck={false}
                autoComplete="off"
                placeholder="CommandOrControl+Shift+Space"
                onChange={(event) => set('paletteShortcut', event.target.value)}
              />
            </Field>
          </div>
          <CheckField
            label={t('settings.screenshotsAsk')}
            hint={t('settings.screenshotsAskHint')}
            testId="settings-screenshots-ask"
            checked={draft.screenshotsAsk}
            onChange={(checked) => set('screenshotsAsk', checked)}
          />
          <CheckField
            label={t('settings.desktopFailSafe')}
            hint={t('settings.desktopFailSafeHint')}
            testId="settings-desktop-fail-safe"
            checked={draft.desktopFailSafe}
            onChange={(checked) => set('desktopFailSafe', checked)}
          />
        </section>
        </SettingsPage>

        <SettingsPage id="chatApps" active={active}>
          <ChatAppsSection draft={draft} errors={errors} set={set} />
        </SettingsPage>

        <SettingsPage id="mcp" active={active}>
          <McpServersSection />
        </SettingsPage>

        <SettingsPage id="web" active={active}>
          <WebDomainsSection settings={settings} />
        </SettingsPage>

        <SettingsPage id="prices" active={active}>
          <ModelPricesSection draft={draft} set={set} suggestedModel={draft.model.trim()} />
        </SettingsPage>

        <SettingsPage id="checkpoints" active={active}>
          <CheckpointsSection settings={settings} />
        </SettingsPage>

        <SettingsPage id="checks" active={active}>
          <ProjectChecksSection settings={settings} />
        </SettingsPage>

        <SettingsPage id="general" active={active}>
        <section>
          <h3>{t('settings.section.general')}</h3>
          <Field label={t('settings.language')} htmlFor={`${id}-lang`}>
            <select
              id={`${id}-lang`}
              className="text-input"
              data-testid="settings-language"
              value={draft.language}
              onChange={(event) => set('language', event.target.value as Language)}
            >
              {languages.map((language) => (
                <option key={language} value={language} lang={language}>
                  {t(`language.${language}`)}
                </option>
              ))}
            </select>
          </Field>
          <ThemeField />
        </section>
        </SettingsPage>
      </div>
      </div>

      <div className="settings-footer">
        <div className="settings-status">
          {error && (
            <div className="form-error" role="alert" data-testid="settings-error">
              {error}
            </div>
          )}
          {invalid && !error && <span className="field-error">{t('settings.fixFields')}</span>}
          {saved && !error && !invalid && (
            <span className="form-ok" data-testid="settings-saved">
              {t('settings.saved')}
            </span>
          )}
        </div>
        <div className="dialog-actions">
          <button type="button" className="btn" data-testid="settings-close" onClick={() => closeRequest.current()}>
            {t('settings.close')}
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            data-testid="settings-save"
            disabled={saving || invalid}
            title={invalid ? t('settings.fixFields') : undefined}
          >
            {saving ? t('settings.saving') : t('settings.save')}
          </button>
        </div>
      </div>
      {askingToClose && (
        <UnsavedChangesDialog
          canSave={!invalid}
          saving={saving}
          onKeepEditing={() => setAskingToClose(false)}
          onDiscard={onClose}
          onSave={() => void save().then((ok) => (ok ? onClose() : setAskingToClose(false)))}
        />
      )}
    </form>
  )
}

export function SettingsPanel({ onClose, section }: { onClose(): void; section?: SettingsSection | null }) {
  const t = useT()
  const titleId = useId()
  const settings = useSettingsStore((s) => s.settings)
  const loadError = useSettingsStore((s) => s.loadError)
  const load = useSettingsStore((s) => s.load)
  // The form replaces this with a close that asks first while it holds unsaved changes.
  const closeRequest = useRef(onClose)
  const requestClose = () => closeRequest.current()

  return (
    <Dialog
      labelledBy={titleId}
      className="settings-dialog"
      testId="settings-panel"
      onBackdrop={requestClose}
      onKeyDown={(event) => {
        // An open model list takes Esc first (it closes the list, not Settings).
        const target = event.target as HTMLElement | null
        if (event.key === 'Escape' && target?.getAttribute('role') === 'combobox' && target.getAttribute('aria-expanded') === 'true') return
        if (event.key === 'Escape') {
          event.preventDefault()
          requestClose()
        }
      }}
    >
      <div className="settings-head">
        <h2 id={titleId} className="dialog-title">
          {t('settings.title')}
        </h2>
        <button type="button" className="icon-button" data-testid="settings-close-x" onClick={requestClose} aria-label={t('settings.close')}>
          <XIcon />
        </button>
      </div>
      {settings ? (
        <SettingsForm settings={settings} onClose={onClose} closeRequest={closeRequest} section={section} />
      ) : loadError ? (
        <div className="chat-status error">
          <span>
            {t('settings.loadFailed')} {t.error(loadError)}
          </span>
          <button type="button" className="btn btn-small" onClick={() => void load()}>
            {t('chat.retry')}
          </button>
        </div>
      ) : (
        <div className="chat-status">{t('settings.loading')}</div>
      )}
    </Dialog>
  )
}
