import { useEffect, useId, useState } from 'react'
import type { ApprovalAnswer, ApprovalPreview } from '../../../../shared/agent-events'
import type { PendingApproval } from '../../../../shared/bridge'
import type { RiskFinding, Verdict } from '../../../../shared/risk'
import { useT } from '../../i18n'
import { attachmentDataUrl, useApprovalsStore, useConversationsStore, useNoticesStore, useToolsStore } from '../../stores'
import { AlertIcon, CheckIcon, Dialog, isMac, isModKey, ShieldIcon, useNow, ZoomableImage } from '../common'
import { alwaysRuleText, highlightField } from './highlight'

/** Keys and clicks are ignored this long after a question appears: a keystroke meant for the composer must not answer it. */
const ARM_DELAY_MS = 600

function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000))
  const minutes = Math.floor(total / 60)
  const seconds = total % 60
  return `${minutes}:${String(seconds).padStart(2, '0')}`
}

const ALWAYS_KEY = isMac ? '⇧A' : 'Shift+A'

function VerdictBadge({ verdict }: { verdict: Verdict }) {
  const t = useT()
  return (
    <span className={`verdict-badge verdict-${verdict}`} data-testid="approval-verdict" data-verdict={verdict}>
      {verdict === 'allow' ? <CheckIcon size={12} /> : verdict === 'deny' ? <AlertIcon size={12} /> : <ShieldIcon size={12} />}
      {t(`approval.verdict.${verdict}`)}
    </span>
  )
}

/** One line per finding; hovering one lights up the text it points at. */
function FindingsList({
  findings,
  onHover
}: {
  findings: readonly RiskFinding[]
  onHover: (rule: string | null) => void
}) {
  const t = useT()
  return (
    <ul className="approval-findings">
      {findings.map((finding, index) => (
        <li
          key={index}
          className={`approval-finding verdict-${finding.verdict}`}
          data-testid="finding"
          data-rule={finding.rule}
          data-verdict={finding.verdict}
          onMouseEnter={() => onHover(finding.rule)}
          onMouseLeave={() => onHover(null)}
        >
          <span className="approval-finding-dot" aria-hidden="true" />
          <span className="approval-finding-message" title={t.finding(finding)}>
            {t.finding(finding)}
          </span>
          <code className="approval-finding-rule">{finding.rule}</code>
        </li>
      ))}
    </ul>
  )
}

/**
 * A preview field exactly as it will run, with the text the findings point at marked. Its label is
 * the tool's own text (translated through the catalogue); `data-label` is that label in English
 * whatever the UI language, so tests and scripts can find a field by it.
 */
function PreviewField({
  tool,
  field,
  args,
  findings,
  activeRule
}: {
  tool: string
  field: ApprovalPreview['fields'][number]
  args: unknown
  findings: readonly RiskFinding[]
  activeRule: string | null
}) {
  const t = useT()
  // `display` is prose shown instead of the value (what a runtime name means): nothing in it to highlight.
  const content = field.display
    ? t.toolText(tool, field.display)
    : highlightField(field, args, findings).map((piece, index) =>
        piece.rules ? (
          <mark
            key={index}
            className={`finding-span verdict-${piece.verdict}${activeRule && piece.rules.includes(activeRule) ? ' active' : ''}`}
            data-testid="finding-span"
            data-rule={piece.rules.join(' ')}
          >
            {piece.text}
          </mark>
        ) : (
          piece.text
        )
      )
  return (
    <div
      className="approval-field"
      data-testid="approval-field"
      data-label={t.toolText(tool, field.label, 'en')}
      data-arg={field.arg}
    >
      <div className="approval-field-label">{t.toolText(tool, field.label)}</div>
      {field.code ? (
        <pre className="approval-field-code">{content}</pre>
      ) : (
        <div className="approval-field-value">{content}</div>
      )}
    </div>
  )
}

/** The preview's image (what is about to happen, e.g. a screenshot), scaled to the dialog; enlarged on click. */
function PreviewImage({ tool, image }: { tool: string; image: NonNullable<ApprovalPreview['image']> }) {
  const t = useT()
  const src = attachmentDataUrl(image.mediaType, image.data)
  if (!src) return null
  const alt = image.alt ? t.toolText(tool, image.alt) : t('approval.imageAlt')
  return <ZoomableImage src={src} alt={alt} className="approval-image" testId="approval-image" />
}

function ApprovalDialog({ approval, queued }: { approval: PendingApproval; queued: number }) {
  const t = useT()
  const titleId = useId()
  const reasonId = useId()
  const alwaysHintId = useId()
  const respond = useApprovalsStore((s) => s.respond)
  const busy = useApprovalsStore((s) => s.responding.has(approval.approvalId))
  const conversation = useConversationsStore((s) => s.list.find((c) => c.id === approval.conversationId))
  const pushNotice = useNoticesStore((s) => s.push)
  const subjectKind = useToolsStore((s) => s.byName[approval.tool]?.subjectKind)
  const [denyReason, setDenyReason] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [armed, setArmed] = useState(false)
  const [activeRule, setActiveRule] = useState<string | null>(null)
  const now = useNow(1000)
  const remaining = approval.expiresAt - now
  const expired = remaining <= 0

  useEffect(() => {
    const timer = setTimeout(() => setArmed(true), ARM_DELAY_MS)
    return () => clearTimeout(timer)
  }, [])

  const { assessment } = approval
  const alwaysRule = assessment.alwaysRule
  // A message send: answered one at a time, never for the conversation or always.
  const onlyOnce = approval.onlyOnce === true
  const alwaysText = alwaysRule ? alwaysRuleText(alwaysRule, subjectKind) : null

  const answer = async (choice: ApprovalAnswer) => {
    if (!armed || busy) return
    if (choice !== 'deny' && expired) return
    if (choice === 'allow_always' && !alwaysRule) return
    if (onlyOnce && (choice === 'allow_conversation' || choice === 'allow_always')) return
    setError(null)
    const reason = choice === 'deny' ? denyReason.trim() || undefined : undefined
    const result = await respond({ approvalId: approval.approvalId, bindingHash: approval.bindingHash, answer: choice, reason })
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
      // Shift+A saves a rule: a deliberate chord, not the plain key that allows once (and nothing when only once is offered).
      if (event.shiftKey && onlyOnce) return
      void answer(event.shiftKey ? 'allow_always' : 'allow_once')
    } else if (key === 'c') {
      event.preventDefault()
      if (!onlyOnce) void answer('allow_conversation')
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
      <div className="approval-head" data-approval-id={approval.approvalId} data-tool={approval.tool} data-only-once={onlyOnce || undefined}>
        <span className="approval-icon">
          <ShieldIcon size={18} />
        </span>
        <div className="approval-head-text">
          <div className="approval-kicker">{t('approval.heading')}</div>
          {approval.delegatedTask && (
            <div className="approval-kicker" data-testid="approval-delegated">
              {t('approval.delegatedTask', { task: approval.delegatedTask })}
            </div>
          )}
          <h2 id={titleId} className="dialog-title">
            {t.toolText(approval.tool, approval.preview.title)}
          </h2>
        </div>
        <VerdictBadge verdict={assessment.verdict} />
        {queued > 0 && (
          <span className="approval-queue" data-testid="approval-queue">
            {t('approval.queue', { n: queued })}
          </span>
        )}
      </div>

      {/* What will run scrolls; the answers below it stay in view however long it is. */}
      <div className="approval-body" data-testid="approval-body">
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
          {assessment.findings.length === 0 && (
            <div>
              <dt>{t('approval.reason')}</dt>
              <dd className="approval-reason">{approval.reason}</dd>
            </div>
          )}
        </dl>

        {/* What will run first: it must be readable without scrolling past the findings. */}
        {approval.preview.image && <PreviewImage tool={approval.tool} image={approval.preview.image} />}
        <div className="approval-fields">
          {approval.preview.fields.map((field, index) => (
            <PreviewField
              key={index}
              tool={approval.tool}
              field={field}
              args={approval.args}
              findings={assessment.findings}
              activeRule={activeRule}
            />
          ))}
        </div>

        {assessment.findings.length > 0 && (
          <section className="approval-section" aria-label={t('approval.reason')}>
            <div className="approval-field-label">{t('approval.reason')}</div>
            <FindingsList findings={assessment.findings} onHover={setActiveRule} />
          </section>
        )}
      </div>

      <div className="approval-answer">
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

        {onlyOnce ? (
          <div className="approval-only-once" data-testid="approval-only-once">
            <ShieldIcon size={13} />
            <span>{t('approval.onlyOnceNote')}</span>
          </div>
        ) : (
          <div className="approval-choices">
            <button
              type="button"
              className="btn approval-choice"
              data-testid="approval-allow-conversation"
              title={t('approval.allowConversationTitle')}
              disabled={!armed || busy || expired}
              onClick={() => void answer('allow_conversation')}
            >
              <span className="approval-choice-label">{t('approval.allowConversation')}</span>
              <kbd>C</kbd>
            </button>
            <button
              type="button"
              className="btn approval-choice"
              data-testid="approval-allow-always"
              title={alwaysText !== null ? t('approval.allowAlwaysTitle', { rule: alwaysText }) : undefined}
              disabled={!armed || busy || expired || alwaysText === null}
              aria-describedby={alwaysText === null ? alwaysHintId : undefined}
              onClick={() => void answer('allow_always')}
            >
              <span className="approval-choice-label">
                {t('approval.allowAlways')}
                {alwaysText !== null && (
                  <code className="approval-always-rule" data-testid="approval-always-rule">
                    {alwaysText}
                  </code>
                )}
              </span>
              <kbd>{ALWAYS_KEY}</kbd>
            </button>
            {alwaysText === null && (
              <div id={alwaysHintId} className="approval-always-blocked" data-testid="approval-always-blocked">
                {t.alwaysBlocked(assessment) ?? t('approval.alwaysUnavailable')}
              </div>
            )}
          </div>
        )}

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
