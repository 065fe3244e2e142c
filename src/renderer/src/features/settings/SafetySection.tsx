/**
 * Settings → Safety: how much a run may do without asking (autonomy), where commands and code run,
 * which environment variables reach them, the workspace, and a run's limits. Part of the settings
 * form's draft: saved by the form's Save button. The chat header's autonomy chip opens Settings here.
 */
import { useEffect, useRef } from 'react'
import type { Autonomy, CodeStrictness, RuntimeChoice } from '../../../../shared/bridge'
// A value, not only a type: the model's key never goes to the allowlist.
import { modelKeyEnvOf } from '../../../../shared/bridge/settings'
import { useT } from '../../i18n'
import { AllowedEnvField } from './AllowedEnvField'
import { Field } from './fields'
import type { SettingsFormState } from './use-settings-form'

const AUTONOMY: readonly Autonomy[] = ['readonly', 'supervised', 'full']
const RUNTIMES: readonly RuntimeChoice[] = ['auto', 'docker', 'bwrap', 'native']
const CODE_STRICTNESS: readonly CodeStrictness[] = ['strict', 'standard', 'trusted']

/** The three autonomy levels as cards, each with what it means. */
function AutonomyField({ form }: { form: SettingsFormState }) {
  const t = useT()
  const { id, draft, set } = form
  return (
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
  )
}

/** Where commands and code run (runtime, code strictness, Docker image) and the browser the web tools drive. */
function RuntimeFields({ form }: { form: SettingsFormState }) {
  const t = useT()
  const { id, draft, errors, set, aria } = form
  return (
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
  )
}

export function SafetySection({ form, openedHere }: { form: SettingsFormState; /** Settings was opened at this section: it is scrolled to, its autonomy focused. */ openedHere: boolean }) {
  const t = useT()
  const { id, draft, errors, set, aria } = form
  const safetyRef = useRef<HTMLElement>(null)
  useEffect(() => {
    if (!openedHere || !safetyRef.current) return
    const el = safetyRef.current
    // After the dialog's own mount effect, which focuses the dialog itself.
    const frame = requestAnimationFrame(() => {
      el.scrollIntoView({ block: 'start' })
      el.querySelector<HTMLInputElement>('input:checked')?.focus()
    })
    return () => cancelAnimationFrame(frame)
  }, [openedHere])
  return (
    <section ref={safetyRef} data-testid="settings-section-safety">
      <h3>{t('settings.section.safety')}</h3>
      <AutonomyField form={form} />
      <RuntimeFields form={form} />
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
  )
}
