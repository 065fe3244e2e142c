import { useEffect, useId, useState } from 'react'
import type { ApprovalAnswer } from '../../../../shared/agent-events'
import type { PendingApproval } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { useApprovalsStore, useConversationsStore, useNoticesStore } from '../../stores'
import { Dialog, isModKey, ShieldIcon, useNow } from '../common'

/** Keys and clicks are ignored this long after a question appears: a keystroke meant for the composer must not answer it. */
const ARM_DELAY_MS = 600

function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000))
  const minutes = Math.floor(total / 60)
  const seconds = total % 60
  return `${minutes}:${String(seconds).padStart(2, '0')}`
}

function ApprovalDialog({ approval, queued }: { approval: PendingApproval; queued: number }) {
  const t = useT()
  const titleId = useId()
  const reasonId = useId()
  const respond = useApprovalsStore((s) => s.respond)
  const busy = useApprovalsStore((s) => s.responding.has(approval.approvalId))
  const conversation = useConversationsStore((s) => s.list.find((c) => c.id === approval.conversationId))
  const pushNotice = useNoticesStore((s) => s.push)
  const [denyReason, setDenyReason] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [armed, setArmed] = useState(false)
  const now = useNow(1000)
  const remaining = approval.expiresAt - now
  const expired = remaining <= 0

  useEffect(() => {
    const timer = setTimeout(() => setArmed(true), ARM_DELAY_MS)
    return () => clearTimeout(timer)
  }, [])

  const answer = async (choice: ApprovalAnswer) => {
    if (!armed || busy) return
    if (choice === 'allow_once' && expired) return
    setError(null)
    const reason = choice === 'deny' ? denyReason.trim() || undefined : undefined
    const result = await respond(approval.approvalId, choice, reason)
    if (!result.ok) {
      if (result.error.code === 'NOT_FOUND') pushNotice(t('approval.alreadySettled'), 'info')
      else setError(t('approval.respondFailed', { message: t.error(result.error) }))
    } else if (!result.data.accepted) {
      pushNotice(t('approval.alreadySettled'), 'info')
    }
  }

  const onKeyDown = (event: KeyboardEvent) => {
    const inReason = event.target instanceof HTMLElement && event.target.id === reasonId
    const onButton = event.target instanceof HTMLButtonElement
    if (event.key === 'Enter' && isModKey(event)) {
      event.preventDefault()
      if (!event.repeat) void answer('allow_once')
      return
    }
    if (event.key === 'Escape') {
      event.preventDefault()
      if (!event.repeat) void answer('deny')
      return
    }
    if (inReason) {
      // Enter in the reason box sends the denial with its reason.
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault()
        void answer('deny')
      }
      return
    }
    if (event.key === 'Enter' && !onButton) {
      // Plain Enter never allows: too easy to press by accident.
      event.preventDefault()
      return
    }
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return
    const key = event.key.toLowerCase()
    if (key === 'a') {
      event.preventDefault()
      void answer('allow_once')
    } else if (key === 'd') {
      event.preventDefault()
      void answer('deny')
    }
  }

  return (
    <Dialog
      role="alertdialog"
      labelledBy={titleId}
      className="approval-dialog"
      testId="approval-modal"
      onKeyDown={onKeyDown}
    >
      <div className="approval-head" data-approval-id={approval.approvalId}>
        <span className="approval-icon">
          <ShieldIcon size={18} />
        </span>
        <div className="approval-head-text">
          <div className="approval-kicker">{t('approval.heading')}</div>
          <h2 id={titleId} className="dialog-title">
            {approval.preview.title}
          </h2>
        </div>
        {queued > 0 && (
          <span className="approval-queue" data-testid="approval-queue">
            {t('approval.queue', { n: queued })}
          </span>
        )}
      </div>

      <dl className="approval-meta">
        <div>
          <dt>{t('approval.tool')}</dt>
          <dd>
            <code>{approval.tool}</code>
          </dd>
        </div>
        {conversation && (
          <div>
            <dt>{t('approval.conversation')}</dt>
            <dd>{conversation.title.trim() || t('conversation.untitled')}</dd>
          </div>
        )}
        <div>
          <dt>{t('approval.reason')}</dt>
          <dd className="approval-reason">{approval.reason}</dd>
        </div>
      </dl>

      <div className="approval-fields">
        {approval.preview.fields.map((field, index) => (
          <div key={index} className="approval-field" data-testid="approval-field" data-label={field.label}>
            <div className="approval-field-label">{field.label}</div>
            {field.code ? (
              <pre className="approval-field-code">{field.value}</pre>
            ) : (
              <div className="approval-field-value">{field.value}</div>
            )}
          </div>
        ))}
      </div>

      <label className="approval-deny-label" htmlFor={reasonId}>
        {t('approval.denyReason')}
      </label>
      <input
        id={reasonId}
        className="text-input"
        data-testid="approval-deny-reason"
        value={denyReason}
        maxLength={2000}
        placeholder={t('approval.denyReasonPlaceholder')}
        onChange={(event) => setDenyReason(event.target.value)}
      />

      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}

      <div className="approval-footer">
        <div className="approval-footer-info">
          <span className={`approval-countdown${remaining < 30_000 ? ' urgent' : ''}`} data-testid="approval-countdown">
            {expired ? t('approval.expired') : t('approval.countdown', { time: formatRemaining(remaining) })}
          </span>
          <span className="approval-keys">{t('approval.keys')}</span>
        </div>
        <div className="dialog-actions">
          <button
            type="button"
            className="btn btn-danger-outline"
            data-testid="approval-deny"
            disabled={!armed || busy}
            onClick={() => void answer('deny')}
          >
            {t('approval.deny')}
            <kbd>D</kbd>
          </button>
          <button
            type="button"
            className="btn btn-primary"
            data-testid="approval-allow"
            disabled={!armed || busy || expired}
            onClick={() => void answer('allow_once')}
          >
            {t('approval.allow')}
            <kbd>A</kbd>
          </button>
        </div>
      </div>
    </Dialog>
  )
}

/** The oldest pending approval, one at a time, with the queue length. */
export function ApprovalModal() {
  const pending = useApprovalsStore((s) => s.pending)
  const current = pending[0]
  if (!current) return null
  return <ApprovalDialog key={current.approvalId} approval={current} queued={pending.length - 1} />
}
