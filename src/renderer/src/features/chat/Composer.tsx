import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { useT } from '../../i18n'
import { activeRun, cancelActiveRun, sendMessage, useChatStore } from '../../stores'
import { isModKey, SendIcon, StopIcon } from '../common'
import { useConnectionState } from '../connection'
import { AttachButton, AttachmentChips, AttachmentProblems, useComposerAttachments } from './attachments'
import { useDraftStore } from './draft'

/** The bridge's limit of a message's text (agent.send); a longer paste becomes an attachment instead. */
const MAX_LENGTH = 100_000

export function Composer() {
  const t = useT()
  const text = useDraftStore((s) => s.text)
  const setText = useDraftStore((s) => s.setText)
  const focusToken = useDraftStore((s) => s.focusToken)
  const conversationId = useChatStore((s) => s.conversationId)
  const running = useChatStore((s) => activeRun(s.snapshot) !== null)
  const [sending, setSending] = useState(false)
  // Web host only: while the bridge is down a send cannot go anywhere, so it waits (the draft stays).
  const connection = useConnectionState()
  const connected = connection.status === 'connected'
  const offlineReason =
    connection.addressGone ? t('composer.offlineGone') : connection.status === 'disconnected' ? t('composer.offline') : null
  const [error, setError] = useState<string | null>(null)
  const ref = useRef<HTMLTextAreaElement>(null)
  const attachments = useComposerAttachments()

  // Grow with the text up to a limit, then scroll.
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    el.style.height = 'auto'
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`
  }, [text])

  useEffect(() => {
    ref.current?.focus()
    setError(null)
  }, [conversationId, focusToken])

  // Over the limit the text is kept whole and the person is told (never cut: issue 22).
  const tooLong = text.length > MAX_LENGTH
  const canSend = text.trim().length > 0 && !tooLong && !running && !sending && connected

  const send = async () => {
    if (!canSend) return
    const message = text
    setSending(true)
    setError(null)
    const attached = attachments.take()
    const result = await sendMessage(message, attached.inputs)
    attached.settled(result)
    setSending(false)
    if (result.ok) {
      // Only clear what was sent: the user may have kept typing meanwhile.
      if (useDraftStore.getState().text === message) setText('')
    } else {
      setError(t('composer.sendFailed', { message: t.error(result.error) }))
    }
    ref.current?.focus()
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An IME (Chinese, Japanese…) uses Enter to confirm a candidate: that must never send.
    if (event.nativeEvent.isComposing || event.keyCode === 229) return
    if (event.key === 'Enter' && (isModKey(event) || (!event.shiftKey && !event.altKey))) {
      event.preventDefault()
      void send()
    } else if (event.key === 'Escape' && running) {
      event.preventDefault()
      void cancelActiveRun()
    }
  }

  return (
    <div className="composer-wrap">
      {error && (
        <div className="composer-error" role="alert">
          {error}
        </div>
      )}
      {tooLong && (
        <div className="composer-error" role="alert" data-testid="composer-too-long">
          {t('composer.tooLong', { n: text.length.toLocaleString(t.language), limit: MAX_LENGTH.toLocaleString(t.language) })}
        </div>
      )}
      <AttachmentProblems />
      <AttachmentChips />
      <div className={`composer${running ? ' is-running' : ''}`}>
        <AttachButton />
        <textarea
          ref={ref}
          className="composer-input"
          data-testid="composer-input"
          rows={1}
          value={text}
          placeholder={attachments.count > 0 && !text ? t('attachments.placeholder') : t('composer.placeholder')}
          aria-label={t('composer.placeholder')}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={attachments.onPaste}
        />
        {running ? (
          <button
            type="button"
            className="composer-button stop"
            data-testid="stop-button"
            onClick={() => void cancelActiveRun()}
            title={`${t('composer.stop')} (Esc)`}
            aria-label={t('composer.stop')}
          >
            <StopIcon size={14} />
          </button>
        ) : (
          <button
            type="button"
            className="composer-button send"
            data-testid="send-button"
            disabled={!canSend}
            onClick={() => void send()}
            title={offlineReason ?? t('composer.send')}
            aria-label={t('composer.send')}
          >
            <SendIcon size={16} />
          </button>
        )}
      </div>
      {offlineReason ? (
        <div className="composer-hint composer-offline" role="status" data-testid="composer-offline">
          {offlineReason}
        </div>
      ) : (
        <div className="composer-hint">{t('composer.hint')}</div>
      )}
    </div>
  )
}
