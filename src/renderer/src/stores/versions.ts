/**
 * Message versions in the chat (docs/architecture.md, "Message versions"): which branch of the
 * open conversation is shown, what is left out, and where the "‹ 2 / 2 ›" pagers and Regenerate
 * go. Pure, apart from the one-entry memo of selectChatPath; unit-tested under plain Node
 * (test/unit/renderer/message-versions.test.ts).
 */
import { conversationPath, type BranchChoices, type ConversationPath, type Versions } from '../../../shared/branches'
import type { ChatSnapshot, RunView } from './reducers'

/** An answer whose run left no message gets its actions on the run's end row. */
export const RUN_END_ANCHOR = 'run_end'

export interface ChatPath {
  path: ConversationPath
  /** The snapshot without the messages, runs and tool calls of other branches. */
  visible: ChatSnapshot
  /** The shown questions' versions (edited questions), by question id. */
  questionVersions: Readonly<Record<string, Versions>>
  /** The shown answers' versions (regenerated answers), by run id. */
  answerVersions: Readonly<Record<string, Versions>>
  /** Where each shown answer's actions go: its last message's id, or RUN_END_ANCHOR. */
  answerAnchors: Readonly<Record<string, string>>
  /** Runs that ended without a message or a note: they get an end row only to carry their actions. */
  endRows: ReadonlySet<string>
}

/** A run's end that says something (the chat shows a note for it), so its actions go there. */
export function endIsNoteworthy(run: Pick<RunView, 'status' | 'stopReason'>): boolean {
  return run.status === 'failed' || run.status === 'cancelled' || run.status === 'interrupted' || run.stopReason === 'max_iterations'
}

/** The shown branch of a conversation and what the chat needs to page through its versions. */
export function chatPath(snapshot: ChatSnapshot, choices: BranchChoices = {}): ChatPath {
  return withVisible(snapshot, pathParts(snapshot, choices))
}

type PathParts = Omit<ChatPath, 'visible'>

function pathParts(snapshot: ChatSnapshot, choices: BranchChoices): PathParts {
  const questions = snapshot.messages.filter((m) => m.role === 'user')
  const path = conversationPath(questions, snapshot.runs, choices)
  const lastMessage = new Map<string, string>()
  for (const message of snapshot.messages) {
    if (message.role === 'assistant' && message.runId) lastMessage.set(message.runId, message.id)
  }
  const runs = new Map(snapshot.runs.map((run) => [run.id, run]))
  const questionVersions: Record<string, Versions> = {}
  const answerVersions: Record<string, Versions> = {}
  const answerAnchors: Record<string, string> = {}
  const endRows = new Set<string>()
  for (const turn of path.turns) {
    questionVersions[turn.questionId] = turn.questionVersions
    if (turn.runId === null || turn.answerVersions === null) continue
    answerVersions[turn.runId] = turn.answerVersions
    const run = runs.get(turn.runId)
    const message = lastMessage.get(turn.runId)
    if (run && endIsNoteworthy(run)) {
      answerAnchors[turn.runId] = RUN_END_ANCHOR
    } else if (message !== undefined) {
      answerAnchors[turn.runId] = message
    } else if (run && run.status !== 'running') {
      answerAnchors[turn.runId] = RUN_END_ANCHOR
      endRows.add(turn.runId)
    }
  }
  return { path, questionVersions, answerVersions, answerAnchors, endRows }
}

function withVisible(snapshot: ChatSnapshot, parts: PathParts): ChatPath {
  const { hiddenQuestionIds, hiddenRunIds } = parts.path
  if (hiddenQuestionIds.size === 0 && hiddenRunIds.size === 0) return { ...parts, visible: snapshot }
  const hiddenRun = (runId: string | null) => runId !== null && hiddenRunIds.has(runId)
  const visible: ChatSnapshot = {
    ...snapshot,
    messages: snapshot.messages.filter((m) => (m.role === 'user' ? !hiddenQuestionIds.has(m.id) : !hiddenRun(m.runId))),
    toolCalls: snapshot.toolCalls.filter((call) => !hiddenRun(call.runId)),
    runs: snapshot.runs.filter((run) => !hiddenRunIds.has(run.id))
  }
  return { ...parts, visible }
}

/**
 * What decides the path and the anchors: the tree's links, the runs' ends, which message is each
 * run's last, and the choices. Streamed text changes none of it.
 */
function structureKey(snapshot: ChatSnapshot, choices: BranchChoices): string {
  const parts: string[] = [snapshot.conversationId]
  for (const m of snapshot.messages) {
    parts.push(m.role === 'user' ? `q${m.id}|${m.runId}|${m.parentRunId}|${m.createdAt}` : `a${m.id}|${m.runId}`)
  }
  for (const r of snapshot.runs) parts.push(`r${r.id}|${r.answersMessageId}|${r.startedAt}|${r.status}|${r.stopReason}`)
  for (const [key, id] of Object.entries(choices)) parts.push(`c${key}=${id}`)
  return parts.join('\n')
}

let memo: { snapshot: ChatSnapshot; choices: BranchChoices; key: string; result: ChatPath } | null = null

/**
 * The chat store's path, computed once per state: every message row asks for its versions, and
 * while an answer streams the path's parts stay the same objects, so those rows do not re-render.
 */
export function selectChatPath(state: { snapshot: ChatSnapshot | null; choices: BranchChoices }): ChatPath | null {
  const { snapshot, choices } = state
  if (!snapshot) return null
  if (memo && memo.snapshot === snapshot && memo.choices === choices) return memo.result
  const key = structureKey(snapshot, choices)
  const result = memo && memo.key === key ? withVisible(snapshot, memo.result) : chatPath(snapshot, choices)
  memo = { snapshot, choices, key, result }
  return result
}
