import { memo } from 'react'
import { useT } from '../../i18n'
import type { SubagentView } from '../../stores/subagents'

/**
 * A delegate call's sub-agents inside its card (docs/tools.md, "Sub-agents"): each child's task,
 * its state, the tools it called and their states, and its answer as it streams.
 */
function SubagentRunsImpl({ subagents }: { subagents: readonly SubagentView[] }) {
  const t = useT()
  return (
    <div className="tool-section" data-testid="subagents">
      {subagents.map((child) => (
        <div key={child.childRunId} className="subagent" data-testid="subagent" data-status={child.status}>
          <div className="tool-section-label">
            {t('subagent.label')} · {t(`subagent.status.${child.status}`)} · {t('subagent.steps', { n: child.steps.length })}
          </div>
          <ol className="tool-steps">
            {child.steps.map((step) => (
              <li key={step.callId} className={`tool-step${step.status === 'completed' ? ' ok' : step.status === 'running' || step.status === 'pending' || step.status === 'awaiting_approval' ? '' : ' failed'}`} data-testid="subagent-step" data-tool={step.tool}>
                <span className="tool-step-label">{step.tool}</span>
                {step.summary && <span className="tool-step-detail">{step.summary}</span>}
                <span className="tool-step-detail">{t(`toolStatus.${step.status}`)}</span>
              </li>
            ))}
          </ol>
          {child.text && <div className="subagent-answer">{child.text}</div>}
        </div>
      ))}
    </div>
  )
}

export const SubagentRuns = memo(SubagentRunsImpl)
