import { useT } from '../../i18n'

/**
 * When a message was written: the time today, the date and time before; the full date and time on
 * hover (issue 22, item 11: messages had no timestamps).
 */
export function MessageTime({ at }: { at: number }) {
  const t = useT()
  const date = new Date(at)
  const today = new Date().toDateString() === date.toDateString()
  const short = new Intl.DateTimeFormat(t.language, today ? { hour: '2-digit', minute: '2-digit' } : { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
  const full = new Intl.DateTimeFormat(t.language, { dateStyle: 'full', timeStyle: 'medium' })
  return (
    <time className="message-time" data-testid="message-time" dateTime={date.toISOString()} title={full.format(date)}>
      {short.format(date)}
    </time>
  )
}
