import { type ReactNode, useMemo, useState } from 'react'
import type { ChatMessage } from '../../../../shared/bridge'
import { type Translator, useT } from '../../i18n'
import {
  activeRun,
  buildTimeline,
  endIsNoteworthy,
  RUN_END_ANCHOR,
  type RunView,
  selectChatPath,
  type TimelineItem,
  useChatStore,
  useConversationsStore,
  useNoticesStore,
  useSettingsStore
} from '../../stores'
import { AlertIcon, ShieldIcon } from '../common'
import { ToolCallCard } from '../timeline'
import { ApplyAtEndSwitch, RestoreBeforeMessage, RunChanges, StagedReviews } from '../checkpoints'
import { CompactionMarker, ContextMeter, ConversationUsage, UsageBadge } from '../usage'
import { DropHint, MessageAttachments, useAttachmentDrop } from './attachments'
import { Composer } from './Composer'
import { useDraftStore } from './draft'
import { Markdown } from './Markdown'
import { ModelPicker } from './ModelPicker'
import { MessageList } from './MessageList'
import { MessageActions } from './MessageActions'
import { AnswerActions, AnswerEndActions } from './AnswerActions'
import { useEditingStore } from './editing'
import { QuestionActions } from './QuestionActions'
import { QuestionEditor } from './QuestionEditor'
import { UserBubble } from './UserBubble'
import { MessageTime } from './MessageTime'

function MessageView({ message }: { message: ChatMessage }) {
  const t = useT()
  const editing = useEditingStore((s) => s.messageId === message.id)
  if (message.role === 'user') {
    return (
      <div className={`message message-user${editing ? ' is-editing' : ''}`} data-testid="message-user" data-message-id={message.id}>
        {message.attachments && message.attachments.length > 0 && <MessageAttachments attachments={message.attachments} />}
        {editing ? <QuestionEditor message={message} /> : <UserBubble text={message.content} />}
        {!editing && <MessageTime at={message.createdAt} />}
        {!editing && (
          <MessageActions role="user" text={message.content}>
            <QuestionActions message={message} />
            <RestoreBeforeMessage messageId={message.id} />
          </MessageActions>
        )}
      </div>
    )
  }
  return (
    <div className="message message-assistant" data-testid="message-assistant" data-message-id={message.id}>
      {/* The letter comes from CSS so the message's text is only what the assistant said. */}
      <span className="avatar" role="img" aria-label={t('chat.assistant')} />
      <div className="message-body">
        <Markdown text={message.content} />
        <MessageTime at={message.createdAt} />
        <MessageActions role="assistant" text={message.content}>
          <AnswerActions runId={message.runId} anchor={message.id} />
          <UsageBadge runId={message.runId} messageId={message.id} />
        </MessageActions>
        {/* The run's total and its undo, under its answer (docs/checkpoints.md, "The UI"). */}
        <RunChanges runId={message.runId} anchor={message.id} />
      </div>
    </div>
  )
}

function runEndText(t: Translator, run: RunView): string {
  if (run.status === 'failed') return run.error ? t.error(run.error) : t('error.INTERNAL')
  if (run.status === 'interrupted') return t('chat.runInterrupted')
  if (run.stopReason === 'max_iterations') return t('chat.runMaxIterations', { n: run.iterations ?? '?' })
  return t('chat.runCancelled')
}

function RunEnd({ run }: { run: RunView }) {
  return (
    <>
      <RunEndNote run={run} />
      {/* The run's total and its undo (docs/checkpoints.md, "The UI"). */}
      <RunChanges runId={run.id} anchor={RUN_END_ANCHOR} />
    </>
  )
}

function RunEndNote({ run }: { run: RunView }) {
  const t = useT()
  // A quiet end has a row only to carry its answer's actions (message versions: stores/versions.ts).
  if (!endIsNoteworthy(run)) return <AnswerEndActions runId={run.id} />
  if (run.status === 'failed') {
    const text = runEndText(t, run)
    return (
      <>
        <div className="run-error" data-testid="run-error" role="alert" title={text}>
          <AlertIcon size={15} />
          <span>{text}</span>
        </div>
        <AnswerEndActions runId={run.id} />
      </>
    )
  }
  return (
    <>
      <div className="run-note">{runEndText(t, run)}</div>
      <AnswerEndActions runId={run.id} />
    </>
  )
}

function Thinking({ compact }: { compact: boolean }) {
  const t = useT()
  return (
    <div className="thinking" data-testid="thinking" aria-live="polite">
      <span className="dots" aria-hidden="true">
        <i />
        <i />
        <i />
      </span>
      {!compact && <span>{t('chat.thinking')}</span>}
    </div>
  )
}

function TimelineEntry({ item }: { item: TimelineItem }) {
  switch (item.kind) {
    case 'message':
      return <MessageView message={item.message} />
    case 'tool':
      return (
        <div className="timeline-indent">
          <ToolCallCard call={item.call} />
        </div>
      )
    case 'run_end':
      return (
        <div className="timeline-indent">
          <RunEnd run={item.run} />
        </div>
      )
    case 'compaction':
      return <CompactionMarker compaction={item.compaction} />
  }
}

/** Messages, run ends and tool cards outside a folded run: one row of the (virtualised) message list. */
const renderTimelineEntry = (item: TimelineItem) => <TimelineEntry item={item} />

function EmptyState() {
  const t = useT()
  const fill = useDraftStore((s) => s.fill)
  const examples = [t('chat.example1'), t('chat.example2'), t('chat.example3')]
  return (
    <div className="empty-state">
      <div className="empty-mark" aria-hidden="true">
        D
      </div>
      <h1>{t('chat.emptyTitle')}</h1>
      <p>{t('chat.emptyBody')}</p>
      <div className="examples">
        {examples.map((example) => (
          <button key={example} type="button" className="example" onClick={() => fill(example)}>
            {example}
          </button>
        ))}
      </div>
    </div>
  )
}

function ConversationHeader({ onOpenSettings, start }: { onOpenSettings(section?: 'safety'): void; start?: ReactNode }) {
  const t = useT()
  const selectedId = useConversationsStore((s) => s.selectedId)
  const conversation = useConversationsStore((s) => s.list.find((c) => c.id === s.selectedId))
  const rename = useConversationsStore((s) => s.rename)
  const pushNotice = useNoticesStore((s) => s.push)
  const autonomy = useSettingsStore((s) => s.settings?.autonomy)
  const [editing, setEditing] = useState<string | null>(null)
  const title = conversation ? conversation.title.trim() || t('conversation.untitled') : t('app.name')

  const commit = async () => {
    const value = editing?.trim()
    setEditing(null)
    if (!conversation || !value || value === conversation.title) return
    const result = await rename(conversation.id, value.slice(0, 200))
    if (!result.ok) pushNotice(t.error(result.error))
  }

  return (
    <header className="chat-header">
      {start}
      {editing !== null ? (
        <input
          className="title-input"
          value={editing}
          autoFocus
          maxLength={200}
          aria-label={t('conversation.rename')}
          onChange={(event) => setEditing(event.target.value)}
          onBlur={() => void commit()}
          onKeyDown={(event) => {
            if (event.key === 'Enter') void commit()
            if (event.key === 'Escape') {
              event.stopPropagation()
              setEditing(null)
            }
          }}
        />
      ) : (
        <h2
          className={`chat-title${selectedId ? ' editable' : ''}`}
          title={selectedId ? t('conversation.rename') : undefined}
          onClick={() => conversation && setEditing(conversation.title)}
        >
          {title}
        </h2>
      )}
      <ModelPicker />
      <ApplyAtEndSwitch scope={selectedId} />
      <ContextMeter conversationId={selectedId} />
      <ConversationUsage conversationId={selectedId} />
      {autonomy && (
        <button
          type="button"
          className={`autonomy-chip autonomy-${autonomy}`}
          data-testid="autonomy-chip"
          onClick={() => onOpenSettings('safety')}
          title={t(`autonomy.${autonomy}.hint`)}
        >
          <ShieldIcon size={13} />
          {t(`autonomy.${autonomy}`)}
        </button>
      )}
    </header>
  )
}

/** `headerStart`: what the window puts before the title (the sidebar toggle while the sidebar is hidden). */
export function ChatView({ onOpenSettings, headerStart }: { onOpenSettings(section?: 'safety'): void; headerStart?: ReactNode }) {
  const t = useT()
  const conversationId = useChatStore((s) => s.conversationId)
  const status = useChatStore((s) => s.status)
  const snapshot = useChatStore((s) => s.snapshot)
  const error = useChatStore((s) => s.error)
  const refresh = useChatStore((s) => s.refresh)
  // One branch of the conversation: the versions paged to, else the newest (stores/versions.ts).
  const shown = useChatStore(selectChatPath)
  const timeline = useMemo(() => (shown ? buildTimeline(shown.visible, shown.endRows) : []), [shown])
  // Sending (or resending an edit) follows the new answer; paging to another version does not scroll.
  const latestPrompt = snapshot?.messages.findLast((m) => m.role === 'user')?.id ?? null
  const run = activeRun(snapshot)
  const drop = useAttachmentDrop()

  const last = timeline[timeline.length - 1]
  const toolBusy =
    last?.kind === 'tool' &&
    (last.call.status === 'running' || last.call.status === 'awaiting_approval' || last.call.status === 'pending')
  const streamingText = last?.kind === 'message' && last.message.role === 'assistant' && last.message.runId === run?.id

  const showEmpty = !conversationId || (status === 'ready' && timeline.length === 0)

  return (
    <main className="chat" {...drop.handlers}>
      <ConversationHeader onOpenSettings={onOpenSettings} start={headerStart} />
      <MessageList
        conversationId={conversationId}
        timeline={timeline}
        latestPrompt={latestPrompt}
        renderItem={renderTimelineEntry}
        before={
          <>
            {status === 'loading' && <div className="chat-status">{t('chat.loading')}</div>}
            {status === 'error' && !snapshot && (
              <div className="chat-status error">
                <span>{error ? `${t('chat.loadFailed')} ${t.error(error)}` : t('chat.loadFailed')}</span>
                <button type="button" className="btn btn-small" onClick={() => void refresh()}>
                  {t('chat.retry')}
                </button>
              </div>
            )}
            {showEmpty && status !== 'loading' && status !== 'error' && <EmptyState />}
          </>
        }
        after={run && !toolBusy ? <Thinking compact={streamingText} /> : null}
      />
      <StagedReviews conversationId={conversationId} />
      <Composer />
      {drop.dragging && <DropHint />}
    </main>
  )
}
