/**
 * The small row of actions under a chat message. It shows while the message is hovered or anything
 * in it has focus (chat.css, "The actions under a message"); the buttons are always in the tab order, so the
 * keyboard reaches them and they appear as they are focused.
 *
 * Copy is built in. More actions (regenerate, edit and resend) go in as children, each a
 * MessageActionButton, and appear after Copy:
 *
 *   <MessageActions role="assistant" text={message.content}>
 *     <MessageActionButton testId="message-regenerate" label={t('…')} icon={<…Icon size={14} />} onClick={…} />
 *   </MessageActions>
 */
import { type ReactNode, useEffect, useRef, useState } from 'react'
import { useT } from '../../i18n'
import { AlertIcon, CheckIcon, CopyIcon } from '../common'
import { copyText } from './markdown/clipboard'

type CopyState = 'idle' | 'copied' | 'failed'

/** How long "Copied" (or "Could not copy") stays before the button is back to Copy. */
export const COPY_FEEDBACK_MS = 1800

export interface MessageActionsProps {
  role: 'user' | 'assistant'
  /** What Copy puts on the clipboard: an answer's Markdown source as the model wrote it, a question's text as sent. */
  text: string
  /** More actions after Copy (MessageActionButton each): the slot for regenerate and edit-and-resend. */
  children?: ReactNode
}

export function MessageActions({ role, text, children }: MessageActionsProps) {
  const t = useT()
  const [state, setState] = useState<CopyState>('idle')
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])

  const hasText = text.trim() !== ''
  // An answer that was only tool calls has nothing to copy; with no other action there is no row.
  if (!hasText && !children) return null

  const copy = async () => {
    const ok = await copyText(text)
    setState(ok ? 'copied' : 'failed')
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setState('idle'), COPY_FEEDBACK_MS)
  }

  const copyLabel = role === 'assistant' ? t('message.copyAnswer') : t('message.copyQuestion')
  const feedback = state === 'copied' ? t('message.copied') : state === 'failed' ? t('message.copyFailed') : ''

  return (
    <div
      className={`message-actions message-actions-${role}`}
      role="group"
      aria-label={t('message.actions')}
      data-testid="message-actions"
      data-active={state !== 'idle' ? 'true' : undefined}
    >
      {hasText && (
        <MessageActionButton
          testId="message-copy"
          label={state === 'idle' ? copyLabel : feedback}
          icon={state === 'copied' ? <CheckIcon size={14} /> : state === 'failed' ? <AlertIcon size={14} /> : <CopyIcon size={14} />}
          text={feedback || undefined}
          state={state}
          onClick={() => void copy()}
        />
      )}
      {children}
      {/* Said by screen readers when Copy finishes; the button's own label changes too. */}
      <span className="sr-only" role="status" aria-live="polite">
        {feedback}
      </span>
    </div>
  )
}

export interface MessageActionButtonProps {
  /** The accessible name and the tooltip. */
  label: string
  icon: ReactNode
  onClick(): void
  testId?: string
  /** Shown next to the icon (e.g. "Copied"); without it the button is the icon alone. */
  text?: string
  disabled?: boolean
  /** Free-form state for styling and tests (data-state). */
  state?: string
}

/** One action in a MessageActions row: an icon button with a tooltip and an aria-label. */
export function MessageActionButton({ label, icon, onClick, testId, text, disabled, state }: MessageActionButtonProps) {
  return (
    <button
      type="button"
      className="message-action"
      aria-label={label}
      title={label}
      data-testid={testId}
      data-state={state}
      disabled={disabled}
      onClick={onClick}
    >
      {icon}
      {text && <span aria-hidden="true">{text}</span>}
    </button>
  )
}
