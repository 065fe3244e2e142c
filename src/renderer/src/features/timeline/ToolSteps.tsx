import { memo } from 'react'
import { useT } from '../../i18n'
import { isShownImageType, type ToolStep } from '../../stores'
import { CheckIcon, XIcon } from '../common'
import { stepLabel } from './step-label'
import { AttachmentImage } from './ToolAttachments'

/**
 * The steps a long call reported (`tool_progress`), as a checklist that grows while it runs: a
 * tick or a cross, what the step was, what it read, and the crop it checked (enlarged on click).
 */
function ToolStepsImpl({ steps, tool }: { steps: readonly ToolStep[]; tool: string }) {
  const t = useT()
  return (
    <div className="tool-section">
      <div className="tool-section-label">{t('tool.steps')}</div>
      <ol className="tool-steps" data-testid="tool-steps" aria-live="polite">
        {steps.map((step, index) => {
          const label = stepLabel(t, step.step)
          const image = step.attachment && step.attachment.kind === 'image' && isShownImageType(step.attachment.mediaType) ? step.attachment : null
          return (
            <li
              key={index}
              className={`tool-step${step.ok ? ' ok' : ' failed'}`}
              data-testid="tool-step"
              data-step={step.step}
              data-ok={String(step.ok)}
            >
              <span className="tool-step-icon" role="img" aria-label={step.ok ? t('tool.stepOk') : t('tool.stepFailed')}>
                {step.ok ? <CheckIcon size={12} /> : <XIcon size={12} />}
              </span>
              <span className="tool-step-text">
                <span className="tool-step-label">{label}</span>
                {step.detail && (
                  <span className="tool-step-detail" data-testid="tool-step-detail">
                    {step.detailText ? t.toolDisplay(tool, step.detailText) : step.detail}
                  </span>
                )}
              </span>
              {image && (
                <span className="tool-step-media">
                  <AttachmentImage
                    attachment={image}
                    tool={tool}
                    className="attachment-thumb tool-step-thumb"
                    label={t('tool.stepImage', { step: label })}
                  />
                </span>
              )}
            </li>
          )
        })}
      </ol>
    </div>
  )
}

export const ToolSteps = memo(ToolStepsImpl)

/** The last step a call reported, on one line (a folded run's compact row, the palette's row): what it is doing now. */
export function LatestStep({ steps, tool }: { steps: readonly ToolStep[] | undefined; tool?: string }) {
  const t = useT()
  const last = steps && steps.length > 0 ? steps[steps.length - 1]! : null
  if (!last) return null
  const label = stepLabel(t, last.step)
  return (
    <span
      className={`tool-latest-step${last.ok ? ' ok' : ' failed'}`}
      data-testid="tool-latest-step"
      data-step={last.step}
      data-ok={String(last.ok)}
      title={last.detail ? `${label}: ${last.detailText && tool ? t.toolDisplay(tool, last.detailText) : last.detail}` : label}
    >
      {last.ok ? <CheckIcon size={11} /> : <XIcon size={11} />}
      <span className="tool-latest-step-label">{label}</span>
    </span>
  )
}
