/**
 * Settings → "Environment variables commands may see": the names the user adds to the environment
 * allowlist (docs/runtimes.md, "The environment allowlist"), as a list with add and remove. A name
 * is checked as it is typed: a valid variable name, not listed yet, and never the variable the
 * model's key is read from. A valid name still in the box when the form is saved is added too.
 */
import { type KeyboardEvent, useId } from 'react'
import { type Translator, useT } from '../../i18n'
import { XIcon } from '../common'
import { describedBy } from './fields'

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Why `name` cannot be added (translated), or undefined when it can; an empty box is no problem. */
export function allowedEnvNameProblem(name: string, listed: readonly string[], modelKeyEnv: string, t: Translator): string | undefined {
  if (name === '') return undefined
  if (!ENV_NAME.test(name)) return t('settings.invalidEnvName', { name })
  if (name === modelKeyEnv) return t('settings.allowedEnvModelKey', { name })
  if (listed.includes(name)) return t('settings.allowedEnvListed', { name })
  return undefined
}

export function AllowedEnvField({
  names,
  pending,
  modelKeyEnv,
  listError,
  onChange
}: {
  names: readonly string[]
  /** What is typed in the box, not added yet. */
  pending: string
  /** The variable the model's key is read from (refused). */
  modelKeyEnv: string
  /** What is wrong with the list as a whole (a listed name became the key variable). */
  listError: string | undefined
  onChange(names: readonly string[], pending: string): void
}) {
  const t = useT()
  const id = useId()
  const inputId = `${id}-env`
  const typed = pending.trim()
  const problem = allowedEnvNameProblem(typed, names, modelKeyEnv, t)
  const error = problem ?? listError
  const canAdd = typed !== '' && problem === undefined

  const add = () => {
    if (canAdd) onChange([...names, typed], '')
  }
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the name instead of submitting the whole form.
    if (event.key !== 'Enter') return
    event.preventDefault()
    add()
  }

  return (
    <div className={`field allowed-env${error ? ' invalid' : ''}`} data-testid="settings-allowed-env-field">
      <label className="field-label" htmlFor={inputId}>
        {t('settings.allowedEnv')}
      </label>
      {names.length > 0 ? (
        <ul className="allowed-env-list" aria-label={t('settings.allowedEnv')} data-testid="settings-allowed-env-list">
          {names.map((name) => (
            <li key={name} className="allowed-env-item" data-testid="settings-allowed-env-item" data-name={name}>
              <code className={name === modelKeyEnv ? 'allowed-env-refused' : undefined}>{name}</code>
              <button
                type="button"
                className="icon-button"
                data-testid="settings-allowed-env-remove"
                aria-label={t('settings.allowedEnvRemove', { name })}
                title={t('settings.allowedEnvRemove', { name })}
                onClick={() => onChange(names.filter((other) => other !== name), pending)}
              >
                <XIcon size={12} />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <div className="allowed-env-empty" data-testid="settings-allowed-env-empty">
          {t('settings.allowedEnvNone')}
        </div>
      )}
      <div className="allowed-env-add">
        <input
          id={inputId}
          className="text-input mono"
          data-testid="settings-allowed-env"
          value={pending}
          placeholder="GITHUB_TOKEN"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(inputId, true, error)}
          onChange={(event) => onChange(names, event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="btn btn-small" data-testid="settings-allowed-env-add" disabled={!canAdd} onClick={add}>
          {t('settings.allowedEnvAdd')}
        </button>
      </div>
      {error && (
        <div id={`${inputId}-error`} className="field-error" data-testid="settings-field-error" data-field="allowedEnv" role="alert">
          {error}
        </div>
      )}
      <div id={`${inputId}-hint`} className="field-hint">
        {t('settings.allowedEnvHint')}
      </div>
    </div>
  )
}
