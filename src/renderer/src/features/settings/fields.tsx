/** The settings form's building blocks: a labelled field with its hint and error, a checkbox field, integer parsing. */
import { type ReactNode, useId } from 'react'

/** A whole number typed in a field, or null when it is not one or outside min..max. */
export function parseInteger(text: string, min: number, max: number): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null
  const value = Number(text)
  return value >= min && value <= max ? value : null
}

/** A checkbox with its label beside it and its hint below. */
export function CheckField({
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

/** The ids an input names in aria-describedby: its hint and, while there is one, its error. */
export function describedBy(htmlFor: string, hint: boolean, error: string | undefined): string | undefined {
  const ids = [hint ? `${htmlFor}-hint` : '', error ? `${htmlFor}-error` : ''].filter(Boolean)
  return ids.length > 0 ? ids.join(' ') : undefined
}

/** What an input of a Field carries for its error: aria-invalid and aria-describedby. */
export function fieldAria(htmlFor: string, hint: boolean, error: string | undefined) {
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy(htmlFor, hint, error) }
}

export function Field({
  label,
  hint,
  htmlFor,
  field,
  error,
  children
}: {
  label: string
  hint?: ReactNode
  htmlFor: string
  /** The Draft key, named on the error (data-field) for tests and styles. */
  field?: string
  error?: string
  children: ReactNode
}) {
  return (
    <div className={`field${error ? ' invalid' : ''}`}>
      <label className="field-label" htmlFor={htmlFor}>
        {label}
      </label>
      {children}
      {error && (
        <div id={`${htmlFor}-error`} className="field-error" data-testid="settings-field-error" data-field={field}>
          {error}
        </div>
      )}
      {hint && (
        <div id={`${htmlFor}-hint`} className="field-hint">
          {hint}
        </div>
      )}
    </div>
  )
}
