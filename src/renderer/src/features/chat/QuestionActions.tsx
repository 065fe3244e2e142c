/** A question's version actions: Edit (and resend) and "‹ 1 / 2 ›" through its edited versions. */
import type { ChatMessage } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { activeRun, selectChatPath, useChatStore } from '../../stores'
import { useEditingStore } from './editing'
import { MessageActionButton } from './MessageActions'
import { VersionPager } from './VersionPager'
import { EditIcon } from './version-icons'

export function QuestionActions({ message }: { message: ChatMessage }) {
  const t = useT()
  const versions = useChatStore((s) => selectChatPath(s)?.questionVersions[message.id])
  const running = useChatStore((s) => activeRun(s.snapshot) !== null)
  const choose = useChatStore((s) => s.choose)
  const startEditing = useEditingStore((s) => s.start)
  // Only a question on the conversation's tree (main knows its id) can be edited.
  if (!versions) return null
  return (
    <>
      <MessageActionButton
        testId="message-edit"
        label={t('message.edit')}
        icon={<EditIcon size={14} />}
        disabled={running}
        onClick={() => startEditing(message.id, message.content)}
      />
      <VersionPager kind="question" versions={versions} disabled={running} onChoose={(id) => choose(versions.forkKey, id)} />
    </>
  )
}
