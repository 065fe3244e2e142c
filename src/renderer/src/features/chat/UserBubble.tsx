import { useState } from 'react'
import { useT } from '../../i18n'

/** Longer than this (characters or lines), a question is folded to its start. */
const FOLD_CHARS = 1_200
const FOLD_LINES = 14

/** The start of a long text that the folded bubble shows: whole lines up to the limits. */
export function foldedStart(text: string): string | null {
  const lines = text.split('\n')
  if (text.length <= FOLD_CHARS && lines.length <= FOLD_LINES) return null
  const start = lines.slice(0, FOLD_LINES).join('\n')
  return `${start.length > FOLD_CHARS ? start.slice(0, FOLD_CHARS) : start}…`
}

/**
 * A question as sent. A long one shows its start with "Show more" (issue 22: a pasted wall of text
 * made a bubble 37,000 px tall); the whole text stays one click away and is what copy copies.
 */
export function UserBubble({ text }: { text: string }) {
  const t = useT()
  const [open, setOpen] = useState(false)
  const start = foldedStart(text)
  return (
    <>
      <div className={`bubble${start && !open ? ' is-folded' : ''}`} data-testid="user-bubble">
        {start && !open ? start : text}
      </div>
      {start && (
        <div className="bubble-toggle-row">
          <button type="button" className="bubble-toggle" data-testid="bubble-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? t('chat.showLess') : t('chat.showMore', { n: text.length.toLocaleString(t.language) })}
          </button>
        </div>
      )}
    </>
  )
}
