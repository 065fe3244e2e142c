/**
 * The Devices panel's serial console: one port, opened by the user at a chosen speed; what
 * arrives scrolls by, what was sent is echoed apart from it, and it says so when the port
 * closes or the device goes away.
 */
import { type FormEvent, type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from 'react'
import { useT, type Translator } from '../../i18n'
import {
  BAUD_RATES,
  type ConsoleEntry,
  LINE_ENDING_CHOICES,
  type LineEnding,
  type SerialConsole as ConsoleState,
  useDevicesStore
} from '../../stores/devices'
import { XIcon } from '../common'

const HISTORY_MAX = 50

function statusText(t: Translator, c: ConsoleState): string {
  switch (c.status) {
    case 'idle':
      return t('serial.status.idle')
    case 'opening':
      return t('serial.status.opening', { path: c.path })
    case 'open':
      return t('serial.status.open', { baud: c.baudRate })
    case 'closing':
      return t('serial.status.closing')
    case 'closed':
      return c.reason ? t('serial.status.closedReason', { reason: c.reason }) : t('serial.status.closed')
    case 'disconnected':
      return t('serial.status.disconnected', { path: c.path })
    case 'failed':
      return t('serial.status.failed', { path: c.path, message: c.error ? t.error(c.error) : '' })
  }
}

function Entry({ entry }: { entry: ConsoleEntry }) {
  const t = useT()
  switch (entry.kind) {
    case 'in':
      // One line break at the very end is the block's own end.
      return <div className="serial-in">{entry.text.endsWith('\n') ? entry.text.slice(0, -1) : entry.text}</div>
    case 'out':
      return (
        <div className="serial-out" data-testid="serial-sent" title={t('serial.sent')}>
          <span className="serial-out-mark" aria-label={t('serial.sent')}>
            ›
          </span>
          {entry.text}
        </div>
      )
    case 'info': {
      const text =
        entry.code === 'opened'
          ? t('serial.info.opened', { baud: entry.baudRate })
          : entry.code === 'writeFailed'
            ? t('serial.info.writeFailed', { message: t.error(entry.error) })
            : entry.reason
              ? `${t(`serial.info.${entry.code}`)}: ${entry.reason}`
              : t(`serial.info.${entry.code}`)
      const tone = entry.code === 'opened' ? '' : entry.code === 'closed' ? ' muted' : ' error'
      return <div className={`serial-info${tone}`} data-code={entry.code}>{`— ${text} —`}</div>
    }
  }
}

export function SerialConsole() {
  const t = useT()
  const id = useId()
  const c = useDevicesStore((s) => s.console)
  const { hideConsole, setBaudRate, setLineEnding, open, close, send, clearOutput } = useDevicesStore.getState()
  const outputRef = useRef<HTMLDivElement>(null)
  const inputRef = useRef<HTMLInputElement>(null)
  /** Follow the output while the user is at its end; stay put when they scrolled up to read. */
  const stickRef = useRef(true)
  const [line, setLine] = useState('')
  const [history, setHistory] = useState<string[]>([])
  const [historyAt, setHistoryAt] = useState<number | null>(null)

  const entries = c?.entries
  useLayoutEffect(() => {
    const output = outputRef.current
    if (output && stickRef.current) output.scrollTop = output.scrollHeight
  }, [entries])

  // Once open, the keyboard goes to the input line.
  const status = c?.status
  useLayoutEffect(() => {
    if (status === 'open') inputRef.current?.focus()
  }, [status])

  if (!c) return null
  const isOpen = c.status === 'open'
  const busy = c.status === 'opening' || c.status === 'closing'

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!isOpen) return
    const text = line
    setLine('')
    setHistoryAt(null)
    if (text !== '') setHistory((h) => [...h.filter((x) => x !== text), text].slice(-HISTORY_MAX))
    stickRef.current = true
    void send(text)
  }

  const onInputKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return
    if (history.length === 0) return
    event.preventDefault()
    const at =
      event.key === 'ArrowUp'
        ? Math.max(0, (historyAt ?? history.length) - 1)
        : historyAt === null
          ? null
          : historyAt + 1 >= history.length
            ? null
            : historyAt + 1
    setHistoryAt(at)
    setLine(at === null ? '' : history[at]!)
  }

  return (
    <section className="serial-console" data-testid="serial-console" data-path={c.path} aria-labelledby={`${id}-title`}>
      <div className="serial-head">
        <h3 id={`${id}-title`} className="serial-title">
          {t('serial.title')} <code className="mono">{c.path}</code>
        </h3>
        <button
          type="button"
          className="icon-button"
          data-testid="serial-hide"
          title={t('serial.hide')}
          aria-label={t('serial.hide')}
          onClick={() => void hideConsole()}
        >
          <XIcon size={14} />
        </button>
      </div>
      <div className="serial-controls">
        <label className="serial-control">
          <span>{t('serial.baudRate')}</span>
          <select
            className="text-input"
            data-testid="serial-baud"
            value={c.baudRate}
            disabled={isOpen || busy}
            onChange={(event) => setBaudRate(Number(event.target.value))}
          >
            {BAUD_RATES.map((rate) => (
              <option key={rate} value={rate}>
                {rate}
              </option>
            ))}
          </select>
        </label>
        <label className="serial-control">
          <span>{t('serial.lineEnding')}</span>
          <select
            className="text-input"
            data-testid="serial-line-ending"
            value={c.lineEnding}
            onChange={(event) => setLineEnding(event.target.value as LineEnding)}
          >
            {LINE_ENDING_CHOICES.map((ending) => (
              <option key={ending} value={ending}>
                {t(`serial.lineEnding.${ending}`)}
              </option>
            ))}
          </select>
        </label>
        <div className="serial-buttons">
          <button type="button" className="btn btn-small btn-primary" data-testid="serial-open" disabled={isOpen || busy} onClick={() => void open()}>
            {t('serial.open')}
          </button>
          <button type="button" className="btn btn-small" data-testid="serial-close" disabled={!isOpen} onClick={() => void close()}>
            {t('serial.close')}
          </button>
          <button
            type="button"
            className="btn btn-small btn-ghost"
            data-testid="serial-clear"
            disabled={c.entries.length === 0}
            onClick={clearOutput}
          >
            {t('serial.clear')}
          </button>
        </div>
      </div>
      <div className={`serial-status state-${c.status}`} data-testid="serial-status" data-state={c.status} role="status">
        <span className="serial-status-dot" aria-hidden="true" />
        <span>{statusText(t, c)}</span>
      </div>
      <div
        ref={outputRef}
        className="serial-output"
        data-testid="serial-output"
        role="log"
        aria-label={t('serial.outputLabel')}
        tabIndex={0}
        onScroll={(event) => {
          const el = event.currentTarget
          stickRef.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24
        }}
      >
        {c.entries.length === 0 ? (
          <div className="serial-empty">{t('serial.emptyOutput')}</div>
        ) : (
          c.entries.map((entry) => <Entry key={entry.id} entry={entry} />)
        )}
      </div>
      <form className="serial-input-row" onSubmit={submit}>
        <input
          ref={inputRef}
          className="text-input mono"
          data-testid="serial-input"
          value={line}
          disabled={!isOpen}
          spellCheck={false}
          autoComplete="off"
          aria-label={t('serial.inputLabel')}
          placeholder={t('serial.inputPlaceholder')}
          onChange={(event) => {
            setLine(event.target.value)
            setHistoryAt(null)
          }}
          onKeyDown={onInputKey}
        />
        <button type="submit" className="btn btn-primary" data-testid="serial-send" disabled={!isOpen}>
          {t('serial.send')}
        </button>
      </form>
    </section>
  )
}
