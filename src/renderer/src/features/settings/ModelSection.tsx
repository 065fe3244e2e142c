/**
 * Settings → Model: the provider and server a run talks to (with the models the server lists and a
 * connection test), what the model is sent, and the saved providers' list. Part of the settings
 * form's draft: saved by the form's Save button.
 */
import { useEffect, useMemo } from 'react'
import type { ImageInput, ProviderKind, ProviderTarget, ToolDescriptions } from '../../../../shared/bridge'
// Values, not only types: what the fields show when empty.
import { activeSavedProvider, CONVENTIONAL_API_KEY_ENV, PROVIDERS_WITH_DEFAULT_BASE_URL } from '../../../../shared/bridge/settings'
import { useT } from '../../i18n'
import { useSettingsStore } from '../../stores'
import { Spinner } from '../common'
import { ApiKeyField } from './ApiKeyField'
import { describedBy, Field } from './fields'
import { ModelCombobox } from './ModelCombobox'
import { SavedProvidersSection } from './SavedProvidersSection'
import { type ServerModels, useServerModels } from './server-models'
import { TestConnection } from './TestConnection'
import type { SettingsFormState } from './use-settings-form'
import { useSettled } from './use-settled'

const PROVIDERS: readonly ProviderKind[] = ['openai', 'anthropic', 'openai-compatible']
const IMAGE_INPUT: readonly ImageInput[] = ['auto', 'on', 'off']
const TOOL_DESCRIPTIONS: readonly ToolDescriptions[] = ['auto', 'full', 'compact']

/**
 * The server the form shows (once its URL is valid, and settled for 400 ms) and the models it
 * lists; the active saved provider keeps the list its server answered with last.
 */
function useProviderModels({ settings, next, errors }: SettingsFormState) {
  const update = useSettingsStore((s) => s.update)
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
  return { serverTarget, serverModels, activeSaved }
}

/** Beside the model's hint: the server's model list loading, failed, or how many it holds (with Refresh). */
function ModelListStatus({ form, serverTarget, serverModels }: { form: SettingsFormState; serverTarget: ProviderTarget | null; serverModels: ServerModels }) {
  const t = useT()
  const { errors } = form
  return errors.baseUrl !== undefined ? null : serverModels.loading ? (
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
}

/** Provider, server address, key, model (listed from the server) and the connection test. */
function ProviderFields({ form }: { form: SettingsFormState }) {
  const t = useT()
  const { id, draft, next, errors, set, aria } = form
  const { serverTarget, serverModels, activeSaved } = useProviderModels(form)
  const modelStatus = <ModelListStatus form={form} serverTarget={serverTarget} serverModels={serverModels} />
  return (
    <>
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
    </>
  )
}

export function ModelSection({ form }: { form: SettingsFormState }) {
  const t = useT()
  const { id, settings, draft, next, errors, set, aria, takeProvider } = form
  const providerInvalid = [errors.provider, errors.baseUrl, errors.apiKeyEnv, errors.model].some((problem) => problem !== undefined)
  return (
    <>
      <section>
        <h3>{t('settings.section.model')}</h3>
        <ProviderFields form={form} />
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
    </>
  )
}
