/**
 * An answer's version actions: Regenerate and "‹ 2 / 2 ›". They go once per answer (a run), on its
 * last message, or on its end row when it has no message or ended with a note (stores/versions.ts).
 */
import { useT } from '../../i18n'
import { activeRun, regenerateAnswer, RUN_END_ANCHOR, selectChatPath, useChatStore, useNoticesStore } from '../../stores'
import { MessageActionButton, MessageActions } from './MessageActions'
import { VersionPager } from './VersionPager'
import { RegenerateIcon } from './version-icons'

/** `anchor`: the message these actions would sit on, or RUN_END_ANCHOR; nothing unless it is the run's. */
export function AnswerActions({ runId, anchor }: { runId: string | null; anchor: string }) {
  const t = useT()
  const isAnchor = useChatStore((s) => runId !== null && selectChatPath(s)?.answerAnchors[runId] === anchor)
  const versions = useChatStore((s) => (runId === null ? undefined : selectChatPath(s)?.answerVersions[runId]))
  const running = useChatStore((s) => activeRun(s.snapshot) !== null)
  // Only an answer whose question is known can be asked again.
  const hasQuestion = useChatStore((s) => Boolean(s.snapshot?.runs.find((r) => r.id === runId)?.answersMessageId))
  const choose = useChatStore((s) => s.choose)
  const pushNotice = useNoticesStore((s) => s.push)
  if (!isAnchor || runId === null) return null

  const regenerate = async () => {
    const result = await regenerateAnswer(runId)
    if (!result.ok) pushNotice(t.error(result.error))
  }
  return (
    <>
      {hasQuestion && (
        <MessageActionButton
          testId="message-regenerate"
          label={t('message.regenerate')}
          icon={<RegenerateIcon size={14} />}
          disabled={running}
          onClick={() => void regenerate()}
        />
      )}
      {versions && <VersionPager kind="answer" versions={versions} disabled={running} onChoose={(id) => choose(versions.forkKey, id)} />}
    </>
  )
}

/** The actions of an answer that has no message to carry them: under its end row. */
export function AnswerEndActions({ runId }: { runId: string }) {
  const isAnchor = useChatStore((s) => selectChatPath(s)?.answerAnchors[runId] === RUN_END_ANCHOR)
  if (!isAnchor) return null
  return (
    <div className="message message-assistant answer-end" data-testid="answer-end">
      <MessageActions role="assistant" text="">
        <AnswerActions runId={runId} anchor={RUN_END_ANCHOR} />
      </MessageActions>
    </div>
  )
}
