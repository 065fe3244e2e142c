/**
 * The Memory panel (docs/tools.md, "Memory"): every memory, searchable in Chinese and English,
 * filtered by scope, each editable and deletable; and how much of them each run is offered
 * (setting memoryContextChars).
 */
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import type { Memory, MemoryFilter, MemoryScope } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { selectConversation, useNoticesStore, useSettingsStore } from '../../stores'
import { useMemoriesStore } from '../../stores/memories'
import { ConfirmDialog, Dialog, TrashIcon, XIcon } from '../common'
import './memory.css'

const FILTERS: readonly MemoryFilter[] = ['all', 'global', 'workspace']
const SCOPES: readonly MemoryScope[] = ['global', 'workspace']
const BUDGET_MAX = 20_000
/** Typing settles this long before the search goes out. */
const SEARCH_DELAY_MS = 150

function MemoryRow({ memory, onClose }: { memory: Memory; onClose(): void }) {
  const t = useT()
  const update = useMemoriesStore((s) => s.update)
  const remove = useMemoriesStore((s) => s.remove)
  const push = useNoticesStore((s) => s.push)
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState(memory.text)
  const [scope, setScope] = useState<MemoryScope>(memory.scope)
  const [confirming, setConfirming] = useState(false)
  const id = useId()
  const date = (at: number) => new Intl.DateTimeFormat(t.language, { dateStyle: 'medium' }).format(at)

  const save = async (event: FormEvent) => {
    event.preventDefault()
    const outcome = await update(memory.id, { text, scope })
    if (outcome.ok) setEditing(false)
    else push(t.error(outcome.error))
  }

  return (
    <li className="memory-row" data-testid="memory-row" data-memory-id={memory.id} data-scope={memory.scope}>
      {editing ? (
        <form className="memory-edit" onSubmit={(event) => void save(event)}>
          <textarea
            id={`${id}-text`}
            className="text-input"
            aria-label={t('memory.editLabel')}
            data-testid="memory-edit-text"
            rows={3}
            value={text}
            maxLength={2000}
            onChange={(event) => setText(event.target.value)}
          />
          <div className="memory-edit-actions">
            <label className="memory-inline-field" htmlFor={`${id}-scope`}>
              <span className="field-label">{t('memory.scope')}</span>
              <select id={`${id}-scope`} className="text-input" data-testid="memory-edit-scope" value={scope} onChange={(event) => setScope(event.target.value as MemoryScope)}>
                {SCOPES.map((s) => (
                  <option key={s} value={s}>
                    {t(`memory.scopeOption.${s}`)}
                  </option>
                ))}
              </select>
            </label>
            <span className="memory-spacer" />
            <button type="button" className="btn btn-small" onClick={() => setEditing(false)}>
              {t('memory.cancel')}
            </button>
            <button type="submit" className="btn btn-small btn-primary" data-testid="memory-edit-save" disabled={text.trim().length === 0}>
              {t('memory.save')}
            </button>
          </div>
        </form>
      ) : (
        <>
          <div className="memory-text" data-testid="memory-text">
            {memory.text}
          </div>
          <div className="memory-meta">
            <span className="memory-badge" data-testid="memory-scope">
              {memory.scope === 'global' ? t('memory.scope.global') : t('memory.scope.workspace', { path: memory.workspace ?? '' })}
            </span>
            <span>
              {t('memory.saved', { date: date(memory.createdAt) })}
              {memory.updatedAt > memory.createdAt && ` · ${t('memory.changed', { date: date(memory.updatedAt) })}`}
            </span>
            {memory.source && (
              <button
                type="button"
                className="link-button"
                data-testid="memory-source"
                onClick={() => {
                  onClose()
                  void selectConversation(memory.source!.conversationId)
                }}
              >
                {t('memory.openSource')}
              </button>
            )}
            <span className="memory-spacer" />
            <button
              type="button"
              className="btn btn-small"
              data-testid="memory-edit"
              onClick={() => {
                setText(memory.text)
                setScope(memory.scope)
                setEditing(true)
              }}
            >
              {t('memory.edit')}
            </button>
            <button type="button" className="btn btn-small" data-testid="memory-delete" aria-label={`${t('memory.delete')}: ${memory.text}`} onClick={() => setConfirming(true)}>
              <TrashIcon size={13} />
              <span>{t('memory.delete')}</span>
            </button>
          </div>
        </>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('memory.deleteTitle')}
          body={t('memory.deleteBody', { text: memory.text })}
          testId="memory-delete-confirm"
          confirmLabel={t('memory.delete')}
          cancelLabel={t('memory.cancel')}
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false)
            void remove(memory.id).then((outcome) => push(outcome.ok ? t('memory.deleted') : t.error(outcome.error), outcome.ok ? 'info' : 'error'))
          }}
        />
      )}
    </li>
  )
}

/** How many characters of memories each run is offered (settings.memoryContextChars). */
function BudgetField() {
  const t = useT()
  const id = useId()
  const settings = useSettingsStore((s) => s.settings)
  const updateSettings = useSettingsStore((s) => s.update)
  const [value, setValue] = useState(String(settings?.memoryContextChars ?? ''))
  const [said, setSaid] = useState<string | null>(null)
  const saved = settings?.memoryContextChars
  useEffect(() => {
    if (saved !== undefined) setValue(String(saved))
  }, [saved])

  const apply = async (event: FormEvent) => {
    event.preventDefault()
    const chars = Number(value.trim())
    if (value.trim() === '' || !Number.isInteger(chars) || chars < 0 || chars > BUDGET_MAX) return setSaid(t('memory.budgetBad'))
    const result = await updateSettings({ memoryContextChars: chars })
    setSaid(result.ok ? t('memory.budgetSaved') : t.error(result.error))
  }

  return (
    <form className="memory-budget" onSubmit={(event) => void apply(event)}>
      <label className="memory-inline-field" htmlFor={`${id}-budget`}>
        <span className="field-label">{t('memory.budget')}</span>
        <input
          id={`${id}-budget`}
          className="text-input memory-budget-input"
          inputMode="numeric"
          data-testid="memory-budget"
          aria-describedby={`${id}-hint`}
          value={value}
          onChange={(event) => {
            setValue(event.target.value)
            setSaid(null)
          }}
        />
      </label>
      <button type="submit" className="btn btn-small" data-testid="memory-budget-apply">
        {t('memory.budgetSave')}
      </button>
      <span id={`${id}-hint`} className="field-hint">
        {said ?? t('memory.budgetHint')}
      </span>
    </form>
  )
}

export function MemoryPanel({ onClose }: { onClose(): void }) {
  const t = useT()
  const titleId = useId()
  const { memories, total, loaded, query, filter } = useMemoriesStore()
  const setOpen = useMemoriesStore((s) => s.setOpen)
  const search = useMemoriesStore((s) => s.search)
  const [typed, setTyped] = useState(query)
  const closeRef = useRef(onClose)
  closeRef.current = onClose

  useEffect(() => {
    setOpen(true)
    return () => setOpen(false)
  }, [setOpen])

  useEffect(() => {
    if (typed === query) return
    const timer = setTimeout(() => void search(typed, filter), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [typed, query, filter, search])

  return (
    <Dialog
      labelledBy={titleId}
      className="memory-dialog"
      testId="memory-panel"
      onBackdrop={onClose}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault()
          closeRef.current()
        }
      }}
    >
      <div className="settings-head">
        <h2 id={titleId} className="dialog-title">
          {t('memory.title')}
        </h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label={t('memory.close')} data-testid="memory-close">
          <XIcon />
        </button>
      </div>
      <div className="memory-scroll">
        <p className="field-hint">{t('memory.intro')}</p>
        <BudgetField />
        <div className="memory-toolbar">
          <input
            type="search"
            className="text-input memory-search"
            placeholder={t('memory.search')}
            aria-label={t('memory.search')}
            data-testid="memory-search"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
          <label className="memory-inline-field">
            <span className="field-label">{t('memory.filter')}</span>
            <select className="text-input" data-testid="memory-filter" value={filter} onChange={(event) => void search(typed, event.target.value as MemoryFilter)}>
              {FILTERS.map((f) => (
                <option key={f} value={f}>
                  {t(`memory.filter.${f}`)}
                </option>
              ))}
            </select>
          </label>
          {loaded && total > 0 && (
            <span className="memory-count" data-testid="memory-count">
              {t('memory.count', { shown: memories.length, total })}
            </span>
          )}
        </div>
        {loaded && memories.length === 0 && (
          <p className="memory-empty" data-testid="memory-empty">
            {query.trim() ? t('memory.noMatch', { query: query.trim() }) : t('memory.empty')}
          </p>
        )}
        <ul className="memory-list" data-testid="memory-list">
          {memories.map((memory) => (
            <MemoryRow key={`${memory.id}:${memory.updatedAt}`} memory={memory} onClose={onClose} />
          ))}
        </ul>
      </div>
    </Dialog>
  )
}
