/**
 * A text field with the server's models under it (the ARIA combobox pattern): type to filter or to
 * name a model the server does not list, ↑/↓ to move, Enter to choose, Esc to close the list.
 * Used by the settings form's model field and by the chat header's model picker.
 */
import { type KeyboardEvent, type ReactNode, useId, useMemo, useRef, useState } from 'react'
import { ChevronIcon } from '../common'

export interface ComboboxExtraOption {
  /** What choosing it does (e.g. "use the model in Settings"). */
  onChoose(): void
  label: ReactNode
  testId: string
  selected?: boolean
}

export interface ModelComboboxProps {
  id?: string
  value: string
  onChange(value: string): void
  /** A model was chosen: an option picked, or Enter on typed text (`typedOption` then names it). */
  onCommit?(model: string): void
  models: readonly string[]
  /** The model currently in use, marked in the list. */
  current?: string
  /** data-testid prefix: the list is `${testId}-list`, its options `${testId}-option`, a typed model `${testId}-custom`. */
  testId: string
  /** data-testid of the input (default: `testId`). */
  inputTestId?: string
  placeholder?: string
  ariaLabel?: string
  describedBy?: string
  invalid?: boolean
  autoFocus?: boolean
  /** The list stays open (a popover whose whole point is the list). */
  alwaysOpen?: boolean
  /** Listed first (e.g. "the default from Settings"). */
  leadingOption?: ComboboxExtraOption
  /** When typed text is not a listed model: an option that commits it (its label). */
  typedOption?(text: string): ReactNode
  /** Shown under the options (loading, an error, "nothing listed"). */
  status?: ReactNode
  /** Esc while the list is closed (or always open). */
  onEscape?(): void
  toggleLabel?: string
}

type Option =
  | { kind: 'lead'; key: string; extra: ComboboxExtraOption }
  | { kind: 'model'; key: string; model: string }
  | { kind: 'typed'; key: string; model: string }

export function ModelCombobox(props: ModelComboboxProps) {
  const { value, models, testId, alwaysOpen = false } = props
  const baseId = useId()
  const inputId = props.id ?? `${baseId}-input`
  const listId = `${baseId}-list`
  const [open, setOpen] = useState(alwaysOpen)
  // Filter only once the user has typed: opening the list shows every model.
  const [filtering, setFiltering] = useState(false)
  const [active, setActive] = useState(-1)
  const input = useRef<HTMLInputElement>(null)
  const shown = alwaysOpen || open

  const options = useMemo<Option[]>(() => {
    const query = value.trim().toLowerCase()
    const listed = filtering && query ? models.filter((model) => model.toLowerCase().includes(query)) : [...models]
    const result: Option[] = []
    if (props.leadingOption && (!filtering || !query)) result.push({ kind: 'lead', key: 'lead', extra: props.leadingOption })
    for (const model of listed) result.push({ kind: 'model', key: `m:${model}`, model })
    const typed = value.trim()
    if (props.typedOption && filtering && typed && !models.includes(typed)) result.push({ kind: 'typed', key: 'typed', model: typed })
    return result
  }, [value, models, filtering, props.leadingOption, props.typedOption])

  const activeIndex = active >= 0 && active < options.length ? active : -1
  const optionId = (index: number) => `${baseId}-opt-${index}`

  const choose = (option: Option) => {
    setFiltering(false)
    setActive(-1)
    if (!alwaysOpen) setOpen(false)
    if (option.kind === 'lead') {
      option.extra.onChoose()
      return
    }
    props.onChange(option.model)
    props.onCommit?.(option.model)
  }

  const move = (delta: number) => {
    if (!shown) setOpen(true)
    if (options.length === 0) return
    setActive((index) => {
      const from = index >= 0 && index < options.length ? index : delta > 0 ? -1 : options.length
      return Math.min(options.length - 1, Math.max(0, from + delta))
    })
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault()
        move(1)
        break
      case 'ArrowUp':
        event.preventDefault()
        move(-1)
        break
      case 'Home':
      case 'End':
        if (shown && activeIndex >= 0) {
          event.preventDefault()
          setActive(event.key === 'Home' ? 0 : options.length - 1)
        }
        break
      case 'Enter': {
        const option = shown && activeIndex >= 0 ? options[activeIndex] : undefined
        if (option) {
          event.preventDefault()
          choose(option)
        } else if (props.onCommit) {
          event.preventDefault()
          const typed = value.trim()
          if (typed) {
            setFiltering(false)
            props.onCommit(typed)
          }
        }
        break
      }
      case 'Escape':
        if (shown && !alwaysOpen) {
          // Close the list only; the dialog around it stays.
          event.preventDefault()
          event.stopPropagation()
          setOpen(false)
          setActive(-1)
        } else if (props.onEscape) {
          event.preventDefault()
          event.stopPropagation()
          props.onEscape()
        }
        break
      case 'Tab':
        if (!alwaysOpen) setOpen(false)
        break
    }
  }

  return (
    <div className={`model-combobox${shown ? ' open' : ''}${alwaysOpen ? ' inline' : ''}`}>
      <div className="model-combobox-field">
        <input
          ref={input}
          id={inputId}
          className="text-input mono"
          data-testid={props.inputTestId ?? testId}
          role="combobox"
          aria-expanded={shown}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={shown && activeIndex >= 0 ? optionId(activeIndex) : undefined}
          aria-label={props.ariaLabel}
          aria-describedby={props.describedBy}
          aria-invalid={props.invalid || undefined}
          value={value}
          placeholder={props.placeholder}
          spellCheck={false}
          autoComplete="off"
          autoFocus={props.autoFocus}
          onChange={(event) => {
            props.onChange(event.target.value)
            setFiltering(true)
            setActive(-1)
            if (!shown) setOpen(true)
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            if (!alwaysOpen) {
              setOpen(false)
              setActive(-1)
              setFiltering(false)
            }
          }}
        />
        {!alwaysOpen && (
          <button
            type="button"
            className="model-combobox-toggle"
            data-testid={`${testId}-toggle`}
            tabIndex={-1}
            aria-label={props.toggleLabel}
            aria-expanded={shown}
            aria-controls={listId}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              setFiltering(false)
              setOpen(!shown)
              input.current?.focus()
            }}
          >
            <ChevronIcon size={14} />
          </button>
        )}
      </div>
      <div className="model-combobox-popup" hidden={!shown}>
        <ul id={listId} role="listbox" className="model-combobox-list" data-testid={`${testId}-list`} aria-label={props.ariaLabel}>
          {options.map((option, index) => {
            const selected = option.kind === 'lead' ? option.extra.selected === true : option.kind === 'model' && option.model === props.current
            return (
              <li
                key={option.key}
                id={optionId(index)}
                role="option"
                aria-selected={selected}
                className={`model-option${index === activeIndex ? ' active' : ''}${selected ? ' selected' : ''}${option.kind !== 'model' ? ` ${option.kind}` : ''}`}
                data-testid={option.kind === 'lead' ? option.extra.testId : option.kind === 'typed' ? `${testId}-custom` : `${testId}-option`}
                data-model={option.kind === 'lead' ? undefined : option.model}
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => index !== activeIndex && setActive(index)}
                onClick={() => choose(option)}
              >
                {option.kind === 'lead' ? option.extra.label : option.kind === 'typed' ? props.typedOption?.(option.model) : option.model}
              </li>
            )
          })}
        </ul>
        {props.status && <div className="model-combobox-status">{props.status}</div>}
      </div>
    </div>
  )
}
