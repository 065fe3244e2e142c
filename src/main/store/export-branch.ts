import { conversationPath, type BranchChoices, type ConversationDetail } from '../../shared'

/**
 * The branch a Markdown export shows (docs/architecture.md, "Message versions"): the versions the
 * chat has on screen (`choices`), else the branch the conversation opens on. `left` counts the
 * questions and answers of other branches that are left out (the JSON export has them all).
 */
export function shownBranch(detail: ConversationDetail, choices: BranchChoices = {}): { detail: ConversationDetail; left: number } {
  const questions = detail.messages.filter((m) => m.role === 'user')
  const { hiddenQuestionIds, hiddenRunIds } = conversationPath(questions, detail.runs, choices)
  const left = hiddenQuestionIds.size + hiddenRunIds.size
  if (left === 0) return { detail, left }
  const hiddenRun = (runId: string | null) => runId !== null && hiddenRunIds.has(runId)
  return {
    left,
    detail: {
      ...detail,
      messages: detail.messages.filter((m) => (m.role === 'user' ? !hiddenQuestionIds.has(m.id) : !hiddenRun(m.runId))),
      toolCalls: detail.toolCalls.filter((call) => !hiddenRun(call.runId)),
      runs: detail.runs.filter((run) => !hiddenRunIds.has(run.id))
    }
  }
}
