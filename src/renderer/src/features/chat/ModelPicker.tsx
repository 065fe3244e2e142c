/**
 * The chat header's model picker: shows the model this conversation talks to (its own, or the
 * default from Settings), lists the models the server offers, takes a model id the server does
 * not list, and sets the choice for this conversation only (conversations.setModel).
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { getDeskclawApi } from '../../bridge'
import { useT } from '../../i18n'
import { newConversation, useConversationsStore, useNoticesStore, useSettingsStore } from '../../stores'
import { ChevronIcon, Spinner } from '../common'
import { ModelCombobox, useServerModels } from '../settings'

/** Sets a conversation's own model (null: Settings') and puts the answer in the list at once. */
async function setConversationModel(id: string, model: string | null) {
  const result = await getDeskclawApi().invoke('conversations.setModel', { id, model })
  if (result.ok) {
    useConversationsStore.setState((state) => ({ list: state.list.map((c) => (c.id === id ? { ...c, ...result.data, model: result.data.model ?? null } : c)) }))
  }
  return result
}

export function ModelPicker() {
  const t = useT()
  const popupId = useId()
  const settings = useSettingsStore((s) => s.settings)
  const selectedId = useConversationsStore((s) => s.selectedId)
  const own = useConversationsStore((s) => s.list.find((c) => c.id === s.selectedId)?.model ?? null)
  const pushNotice = useNoticesStore((s) => s.push)
  const [open, setOpen] = useState(false)
  const [text, setText] = useState('')
  const button = useRef<HTMLButtonElement>(null)
  const root = useRef<HTMLDivElement>(null)

  const fallback = settings?.model.trim() ?? ''
  const current = own ?? fallback
  // The server in Settings: a conversation's model is one of its models.
  const target = useMemo(
    () => (settings && open ? { provider: settings.provider, baseUrl: settings.baseUrl, apiKeyEnv: settings.apiKeyEnv } : null),
    [settings, open]
  )
  const server = useServerModels(target)

  const close = (focusButton: boolean) => {
    setOpen(false)
    if (focusButton) button.current?.focus()
  }

  useEffect(() => {
    if (!open) return
    const onPointer = (event: PointerEvent) => {
      if (root.current && event.target instanceof Node && !root.current.contains(event.target)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointer)
    return () => document.removeEventListener('pointerdown', onPointer)
  }, [open])

  const choose = async (model: string | null) => {
    close(true)
    let id = selectedId
    if (!id) {
      // No conversation open yet: the choice is for the one about to start.
      const created = await newConversation()
      if (!created.ok) {
        pushNotice(t('modelPicker.changeFailed', { error: t.error(created.error) }))
        return
      }
      id = useConversationsStore.getState().selectedId
      if (!id) return
    }
    const chosen = model !== null && model.trim() === fallback && !own ? null : model
    if ((chosen ?? null) === (own ?? null)) return
    const result = await setConversationModel(id, chosen)
    if (!result.ok) pushNotice(t('modelPicker.changeFailed', { error: t.error(result.error) }))
  }

  if (!settings) return null

  const status = server.loading ? (
    <span data-testid="model-picker-status" data-state="loading">
      <Spinner size={11} /> {t('modelPicker.loading')}
    </span>
  ) : server.error ? (
    <span className="model-picker-error" data-testid="model-picker-error" role="alert">
      {t('modelPicker.listFailed', { error: t.error(server.error) })}{' '}
      <button type="button" className="link-button" onClick={server.reload}>
        {t('modelPicker.retry')}
      </button>
    </span>
  ) : server.models.length === 0 ? (
    <span data-testid="model-picker-status" data-state="empty">
      {t('modelPicker.empty')}
    </span>
  ) : (
    <span data-testid="model-picker-status" data-state="ready">
      {t('modelPicker.hint')}
    </span>
  )

  return (
    <div className="model-picker" ref={root}>
      <button
        ref={button}
        type="button"
        className={`model-picker-button${own ? ' own' : ''}`}
        data-testid="model-picker"
        data-model={current}
        data-source={own ? 'conversation' : 'settings'}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? popupId : undefined}
        aria-label={t('modelPicker.button', { model: current || t('modelPicker.none') })}
        title={own ? t('modelPicker.own') : t('modelPicker.useDefault', { model: fallback || t('modelPicker.none') })}
        onClick={() => {
          if (open) {
            close(false)
            return
          }
          setText('')
          setOpen(true)
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault()
            setText('')
            setOpen(true)
          }
        }}
      >
        <span className="model-picker-name">{current || t('modelPicker.none')}</span>
        <ChevronIcon size={12} className="model-picker-chevron" />
      </button>
      {open && (
        <div
          id={popupId}
          className="model-picker-popover"
          role="dialog"
          aria-label={t('modelPicker.label')}
          data-testid="model-picker-popover"
          onBlur={(event) => {
            // Tabbing out closes it, like a click elsewhere.
            if (!root.current?.contains(event.relatedTarget as Node | null)) setOpen(false)
          }}
        >
          <ModelCombobox
            testId="model-picker"
            inputTestId="model-picker-input"
            value={text}
            onChange={setText}
            onCommit={(model) => void choose(model)}
            models={server.models}
            current={own ?? undefined}
            alwaysOpen
            autoFocus
            ariaLabel={t('modelPicker.search')}
            placeholder={t('modelPicker.search')}
            leadingOption={{
              testId: 'model-picker-default',
              selected: !own,
              label: t('modelPicker.useDefault', { model: fallback || t('modelPicker.none') }),
              onChoose: () => void choose(null)
            }}
            typedOption={(model) => t('modelPicker.useTyped', { model })}
            status={status}
            onEscape={() => close(true)}
          />
        </div>
      )}
    </div>
  )
}
