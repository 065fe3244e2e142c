/**
 * A question edited in place: Send starts a new branch from where it was asked (the old one stays,
 * one page back on the question); Cancel or Escape leaves it as it was.
 */
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { ChatMessage } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { activeRun, resendEdited, useChatStore } from '../../stores'
import { useEditingStore } from './editing'

const MAX_LENGTH = 100_000

export function QuestionEditor({ message }: { message: ChatMessage }) {
  const t = useT()
  const text = useEditingStore((s) => s.text)
  const setText = useEditingStore((s) => s.setText)
  const stop = useEditingStore((s) => s.stop)
  const running = useChatStore((s) => activeRun(s.snapshot) !== null)
  const [sending, setSending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const ref = useRef<HTMLTextAreaElement>(null)

  useEffect(() => {
    const el = ref.current
    if (!el) return
    el.focus()
    el.setSelectionRange(el.value.length, el.value.length)
  }, [])

  // Grow with the text up to a limit, then scroll (as the composer does).
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    el.style.height = 'auto'
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`
  }, [text])

  const canSend = text.trim().length > 0 && !running && !sending

  const send = async () => {
    if (!canSend) return
    setSending(true)
    setError(null)
    const result = await resendEdited(message.id, text)
    setSending(false)
    if (result.ok) stop()
    else setError(t('composer.sendFailed', { message: t.error(result.error) }))
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An IME (Chinese, Japanese…) uses Enter to confirm a candidate: that must never send.
    if (event.nativeEvent.isComposing || event.keyCode === 229) return
    if (event.key === 'Enter' && !event.shiftKey && !event.altKey) {
      event.preventDefault()
      void send()
    } else if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      stop()
    }
  }

  return (
    <div className="question-editor" data-testid="question-editor">
      <textarea
        ref={ref}
        className="question-editor-input"
        data-testid="question-editor-input"
        rows={1}
        value={text}
        maxLength={MAX_LENGTH}
        aria-label={t('message.editLabel')}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {error && (
        <div className="question-editor-error" role="alert">
          {error}
        </div>
      )}
      <div className="question-editor-buttons">
        <span className="question-editor-hint">{t('message.editHint')}</span>
        <button type="button" className="btn btn-small" data-testid="question-editor-cancel" onClick={stop}>
          {t('message.editCancel')}
        </button>
        <button
          type="button"
          className="btn btn-small btn-primary"
          data-testid="question-editor-send"
          disabled={!canSend}
          onClick={() => void send()}
        >
          {t('message.editSend')}
        </button>
      </div>
    </div>
  )
}
