import { type FormEvent, type ReactNode, useId, useState } from 'react'
import type { Autonomy, ImageInput, Language, ProviderKind, RuntimeChoice, Settings } from '../../../../shared/bridge'
import { languages, useT } from '../../i18n'
import { useSettingsStore } from '../../stores'
import { Dialog, isMac, XIcon } from '../common'
import { parseAccelerator } from '../desktop'

const PROVIDERS: readonly ProviderKind[] = ['openai', 'anthropic', 'openai-compatible']
const AUTONOMY: readonly Autonomy[] = ['readonly', 'supervised', 'full']
const RUNTIMES: readonly RuntimeChoice[] = ['auto', 'docker', 'bwrap', 'native']
const IMAGE_INPUT: readonly ImageInput[] = ['auto', 'on', 'off']

interface Draft {
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
  dockerImage: string
  allowedEnv: string
  imageInput: ImageInput
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
    dockerImage: settings.dockerImage,
    allowedEnv: settings.allowedEnv.join(', '),
    imageInput: settings.imageInput,
    screenshotMaxWidth: String(settings.screenshotMaxWidth),
    screenshotsAsk: settings.screenshotsAsk,
    desktopStopShortcut: settings.desktopStopShortcut,
    paletteShortcut: settings.paletteShortcut,
    desktopFailSafe: settings.desktopFailSafe
  }
}

function parseInteger(text: string, min: number, max: number): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null
  const value = Number(text)
  return value >= min && value <= max ? value : null
}

/** A checkbox with its label beside it and its hint below. */
function CheckField({
  label,
  hint,
  checked,
  testId,
  onChange
}: {
  label: string
  hint: string
  checked: boolean
  testId: string
  onChange(checked: boolean): void
}) {
  const id = useId()
  return (
    <div className="field check-field">
      <label className="check-label" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          data-testid={testId}
          checked={checked}
          aria-describedby={`${id}-hint`}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span className="field-label">{label}</span>
      </label>
      <div id={`${id}-hint`} className="field-hint">
        {hint}
      </div>
    </div>
  )
}

function Field({ label, hint, htmlFor, children }: { label: string; hint?: string; htmlFor: string; children: ReactNode }) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={htmlFor}>
        {label}
      </label>
      {children}
      {hint && <div className="field-hint">{hint}</div>}
    </div>
  )
}

function SettingsForm({ settings, onClose }: { settings: Settings; onClose(): void }) {
  const t = useT()
  const id = useId()
  const update = useSettingsStore((s) => s.update)
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings))
  const [saving, setSaving] = useState(false)
  const [saved, setSaved] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }))
    setSaved(false)
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    const maxIterations = parseInteger(draft.maxIterations, 1, 100)
    if (maxIterations === null) {
      setError(t('settings.invalidInteger', { field: t('settings.maxIterations'), min: 1, max: 100 }))
      return
    }
    const timeoutSec = parseInteger(draft.approvalTimeoutSec, 1, 86_400)
    if (timeoutSec === null) {
      setError(t('settings.invalidInteger', { field: t('settings.approvalTimeout'), min: 1, max: 86400 }))
      return
    }
    const screenshotMaxWidth = parseInteger(draft.screenshotMaxWidth, 320, 7680)
    if (screenshotMaxWidth === null) {
      setError(t('settings.invalidInteger', { field: t('settings.screenshotMaxWidth'), min: 320, max: 7680 }))
      return
    }
    const desktopStopShortcut = draft.desktopStopShortcut.trim()
    // Checked only when changed: a saved value this parser does not know is main's to judge.
    if (
      desktopStopShortcut !== settings.desktopStopShortcut &&
      (desktopStopShortcut.length > 60 || !parseAccelerator(desktopStopShortcut, isMac))
    ) {
      setError(t('settings.invalidShortcut', { value: desktopStopShortcut }))
      return
    }
    const paletteShortcut = draft.paletteShortcut.trim()
    if (paletteShortcut !== settings.paletteShortcut && (paletteShortcut.length > 60 || !parseAccelerator(paletteShortcut, isMac))) {
      setError(t('settings.invalidShortcut', { value: paletteShortcut }))
      return
    }
    const allowedEnv = draft.allowedEnv
      .split(/[\s,]+/)
      .map((name) => name.trim())
      .filter(Boolean)
    const badName = allowedEnv.find((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    if (badName !== undefined) {
      setError(t('settings.invalidEnvName', { name: badName }))
      return
    }
    const next: Settings = {
      provider: draft.provider,
      model: draft.model.trim(),
      baseUrl: draft.baseUrl.trim(),
      apiKeyEnv: draft.apiKeyEnv.trim(),
      autonomy: draft.autonomy,
      workspace: draft.workspace.trim(),
      language: draft.language,
      maxIterations,
      approvalTimeoutMs: timeoutSec * 1000,
      runtime: draft.runtime,
      dockerImage: draft.dockerImage.trim() || settings.dockerImage,
      allowedEnv,
      imageInput: draft.imageInput,
      screenshotMaxWidth,
      screenshotsAsk: draft.screenshotsAsk,
      desktopStopShortcut,
      desktopFailSafe: draft.desktopFailSafe,
      paletteShortcut,
      // Edited in the Devices panel, not here: kept as it is.
      serialPorts: settings.serialPorts
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
    } else {
      const label = t(`error.${result.error.code}`)
      setError(result.error.message ? `${label}: ${result.error.message}` : label)
    }
  }

  return (
    <form className="settings-form" onSubmit={(event) => void submit(event)} noValidate>
      <div className="settings-scroll">
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
          <Field label={t('settings.model')} hint={t('settings.modelHint')} htmlFor={`${id}-model`}>
            <input
              id={`${id}-model`}
              className="text-input mono"
              data-testid="settings-model"
              value={draft.model}
              spellCheck={false}
              onChange={(event) => set('model', event.target.value)}
            />
          </Field>
          <Field label={t('settings.baseUrl')} hint={t('settings.baseUrlHint')} htmlFor={`${id}-base`}>
            <input
              id={`${id}-base`}
              className="text-input mono"
              data-testid="settings-base-url"
              value={draft.baseUrl}
              spellCheck={false}
              placeholder="http://localhost:11434/v1"
              onChange={(event) => set('baseUrl', event.target.value)}
            />
          </Field>
          <Field label={t('settings.apiKeyEnv')} hint={t('settings.apiKeyEnvHint')} htmlFor={`${id}-key`}>
            <input
              id={`${id}-key`}
              className="text-input mono"
              data-testid="settings-api-key-env"
              value={draft.apiKeyEnv}
              spellCheck={false}
              placeholder="OPENAI_API_KEY"
              onChange={(event) => set('apiKeyEnv', event.target.value)}
            />
          </Field>
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
        </section>

        <section>
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
            <Field label={t('settings.dockerImage')} hint={t('settings.dockerImageHint')} htmlFor={`${id}-image`}>
              <input
                id={`${id}-image`}
                className="text-input mono"
                data-testid="settings-docker-image"
                value={draft.dockerImage}
                spellCheck={false}
                onChange={(event) => set('dockerImage', event.target.value)}
              />
            </Field>
          </div>
          <Field label={t('settings.allowedEnv')} hint={t('settings.allowedEnvHint')} htmlFor={`${id}-env`}>
            <input
              id={`${id}-env`}
              className="text-input mono"
              data-testid="settings-allowed-env"
              value={draft.allowedEnv}
              placeholder="GITHUB_TOKEN, NPM_TOKEN"
              spellCheck={false}
              onChange={(event) => set('allowedEnv', event.target.value)}
            />
          </Field>
          <Field label={t('settings.workspace')} hint={t('settings.workspaceHint')} htmlFor={`${id}-ws`}>
            <input
              id={`${id}-ws`}
              className="text-input mono"
              data-testid="settings-workspace"
              value={draft.workspace}
              spellCheck={false}
              onChange={(event) => set('workspace', event.target.value)}
            />
          </Field>
          <div className="field-row">
            <Field label={t('settings.maxIterations')} hint={t('settings.maxIterationsHint')} htmlFor={`${id}-iter`}>
              <input
                id={`${id}-iter`}
                className="text-input"
                data-testid="settings-max-iterations"
                inputMode="numeric"
                value={draft.maxIterations}
                onChange={(event) => set('maxIterations', event.target.value)}
              />
            </Field>
            <Field
              label={t('settings.approvalTimeout')}
              hint={t('settings.approvalTimeoutHint')}
              htmlFor={`${id}-timeout`}
            >
              <input
                id={`${id}-timeout`}
                className="text-input"
                data-testid="settings-approval-timeout"
                inputMode="numeric"
                value={draft.approvalTimeoutSec}
                onChange={(event) => set('approvalTimeoutSec', event.target.value)}
              />
            </Field>
          </div>
        </section>

        <section>
          <h3>{t('settings.section.desktop')}</h3>
          <div className="field-row">
            <Field
              label={t('settings.screenshotMaxWidth')}
              hint={t('settings.screenshotMaxWidthHint')}
              htmlFor={`${id}-shot-width`}
            >
              <input
                id={`${id}-shot-width`}
                className="text-input"
                data-testid="settings-screenshot-max-width"
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
            >
              <input
                id={`${id}-stop-shortcut`}
                className="text-input mono"
                data-testid="settings-desktop-stop-shortcut"
                value={draft.desktopStopShortcut}
                maxLength={60}
                spellCheck={false}
                autoComplete="off"
                placeholder="Ctrl+Alt+Escape"
                onChange={(event) => set('desktopStopShortcut', event.target.value)}
              />
            </Field>
            <Field label={t('settings.paletteShortcut')} hint={t('settings.paletteShortcutHint')} htmlFor={`${id}-palette-shortcut`}>
              <input
                id={`${id}-palette-shortcut`}
                className="text-input mono"
                data-testid="settings-palette-shortcut"
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
        </section>
      </div>

      <div className="settings-footer">
        <div className="settings-status">
          {error && (
            <div className="form-error" role="alert" data-testid="settings-error">
              {error}
            </div>
          )}
          {saved && !error && (
            <span className="form-ok" data-testid="settings-saved">
              {t('settings.saved')}
            </span>
          )}
        </div>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('settings.close')}
          </button>
          <button type="submit" className="btn btn-primary" data-testid="settings-save" disabled={saving}>
            {saving ? t('settings.saving') : t('settings.save')}
          </button>
        </div>
      </div>
    </form>
  )
}

export function SettingsPanel({ onClose }: { onClose(): void }) {
  const t = useT()
  const titleId = useId()
  const settings = useSettingsStore((s) => s.settings)
  const loadError = useSettingsStore((s) => s.loadError)
  const load = useSettingsStore((s) => s.load)

  return (
    <Dialog
      labelledBy={titleId}
      className="settings-dialog"
      testId="settings-panel"
      onBackdrop={onClose}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault()
          onClose()
        }
      }}
    >
      <div className="settings-head">
        <h2 id={titleId} className="dialog-title">
          {t('settings.title')}
        </h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label={t('settings.close')}>
          <XIcon />
        </button>
      </div>
      {settings ? (
        <SettingsForm settings={settings} onClose={onClose} />
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
