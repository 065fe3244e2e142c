/**
 * The message actions that start a run on another branch (docs/architecture.md, "Message
 * versions"): Regenerate on an answer, Edit and resend on a question; and which answer a new
 * question follows (the one on screen).
 */
import { answerForkKey, questionForkKey } from '../../../shared/branches'
import type { BridgeResult } from '../../../shared/bridge'
import { getDeskclawApi } from '../bridge'
import { useChatStore } from './chat'
import { selectChatPath } from './versions'

type SendResult = BridgeResult<{ runId: string; question?: { id: string; parentRunId: string | null } }>

/** The answer a question sent now follows: the last one on screen (absent: main's newest branch). */
export function shownTip(conversationId: string): { parentRunId: string } | Record<string, never> {
  const state = useChatStore.getState()
  if (state.conversationId !== conversationId) return {}
  const tip = selectChatPath(state)?.path.tipRunId
  return tip ? { parentRunId: tip } : {}
}

/** Asks this answer's question again; the new answer shows as the newest version. */
export async function regenerateAnswer(runId: string): Promise<SendResult> {
  const chat = useChatStore.getState()
  const { conversationId, snapshot } = chat
  const run = snapshot?.runs.find((r) => r.id === runId)
  const question = snapshot?.messages.find((m) => m.role === 'user' && m.id === run?.answersMessageId)
  if (!conversationId || !question) return notFound()
  // `text` is required by agent.send; main asks the stored question again.
  const result = await getDeskclawApi().invoke('agent.send', { conversationId, text: question.content, regenerate: { runId } })
  if (result.ok) {
    useChatStore.getState().choose(answerForkKey(question.id), null)
    noteSent(conversationId, result.data, question.content)
  }
  return result
}

/** Sends `text` in place of this question: a new branch from where it was asked, shown at once. */
export async function resendEdited(messageId: string, text: string): Promise<SendResult> {
  const { conversationId } = useChatStore.getState()
  const shown = selectChatPath(useChatStore.getState())?.path.turns.some((t) => t.questionId === messageId)
  if (!conversationId || !shown) return notFound()
  const result = await getDeskclawApi().invoke('agent.send', { conversationId, text, editOf: { messageId } })
  if (result.ok) {
    if (result.data.question) useChatStore.getState().choose(questionForkKey(result.data.question.parentRunId), null)
    noteSent(conversationId, result.data, text)
  }
  return result
}

function noteSent(conversationId: string, data: { runId: string; question?: { id: string; parentRunId: string | null } }, prompt: string): void {
  useChatStore.getState().noteSent({
    runId: data.runId,
    conversationId,
    prompt,
    at: Date.now(),
    ...(data.question ? { question: data.question } : {})
  })
}

function notFound(): SendResult {
  return { ok: false, error: { code: 'NOT_FOUND', message: 'That message is no longer in this conversation.' } }
}
