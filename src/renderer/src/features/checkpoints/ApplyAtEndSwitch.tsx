/**
 * "Apply changes at the end" (docs/checkpoints.md): a switch per conversation in the chat header and
 * one in the quick-command palette. On, the run works on a copy and its changes wait for review.
 */
import { NEW_CONVERSATION, useApplyAtEndStore } from '../../stores'
import { useT } from '../../i18n'

/** `scope`: a conversation id, null for the one the next message creates, or PALETTE_TASKS. */
export function ApplyAtEndSwitch({ scope, disabled }: { scope: string | null; disabled?: boolean }) {
  const t = useT()
  const key = scope ?? NEW_CONVERSATION
  const on = useApplyAtEndStore((s) => s.on[key] === true)
  const set = useApplyAtEndStore((s) => s.set)
  return (
    <label className="apply-at-end-switch" title={t('checkpoints.applyAtEndTitle')}>
      <input type="checkbox" role="switch" data-testid="apply-at-end" checked={on} disabled={disabled} onChange={(event) => set(key, event.target.checked)} />
      <span>{t('checkpoints.applyAtEnd')}</span>
    </label>
  )
}
