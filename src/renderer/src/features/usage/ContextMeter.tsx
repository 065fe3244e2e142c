/**
 * How full the model's context is, in the chat header: the latest request's input tokens of the
 * window (context_usage), as a small bar and a percentage, with the counts and where the window
 * came from in its tooltip. Shown once a run of this conversation reported its tokens.
 */
import { useT } from '../../i18n'
import { useChatStore } from '../../stores'
import { contextMeterDetail, contextMeterLine, contextPercent } from './context-text'

export function ContextMeter({ conversationId }: { conversationId: string | null }) {
  const t = useT()
  const fill = useChatStore((s) => {
    if (!s.snapshot || s.snapshot.conversationId !== conversationId) return null
    return s.snapshot.runs.findLast((run) => run.context !== undefined)?.context ?? null
  })
  if (!fill) return null
  const percent = contextPercent(fill)
  const detail = contextMeterDetail(t, fill)
  const level = percent >= 75 ? 'high' : percent >= 50 ? 'mid' : 'low'
  return (
    <span className={`context-meter ${level}`} data-testid="context-meter" data-percent={percent} role="note" tabIndex={0} title={detail} aria-label={detail}>
      <span className="context-meter-bar" aria-hidden="true">
        <span className="context-meter-fill" style={{ width: `${Math.min(100, percent)}%` }} />
      </span>
      {contextMeterLine(t, fill)}
    </span>
  )
}
