/**
 * The quick-command palette (issue 13): type a task, pick a workspace, Enter runs it in a new
 * conversation; its progress, tool calls, approval questions and answer show here live, and "Open
 * in DeskClaw" hands the conversation to the main window. In Electron it is a small frameless
 * window shown by a global shortcut (src/main/electron/palette-window.ts); `deskclaw web` serves
 * it at /palette.html.
 */
import { type KeyboardEvent, type RefObject, useEffect, useRef } from 'react'
import { ApprovalModal } from '../features/approvals'
import { ApplyAtEndSwitch } from '../features/checkpoints'
import { FolderIcon, isDialogOpen, isModKey, modKeyLabel, Notices, SendIcon, Spinner, StopIcon } from '../features/common'
import { ConnectionBanner } from '../features/connection'
import { useAppliedTheme } from '../features/theme'
import { useLanguage, useT } from '../i18n'
import { PALETTE_TASKS, useChatStore } from '../stores'
import {
  cancelTask,
  closePalette,
  inElectron,
  loadWorkspaces,
  openInDeskclaw,
  resetPalette,
  startPalette,
  submitTask,
  usePaletteStore
} from './store'
import { statusText, TaskProgress, taskStatus } from './TaskProgress'
import { splitPath, WorkspacePicker } from './WorkspacePicker'

const MAX_INPUT_HEIGHT = 112

function TaskInput({ inputRef }: { inputRef: RefObject<HTMLTextAreaElement | null> }) {
  const t = useT()
  const draft = usePaletteStore((s) => s.draft)
  const setDraft = usePaletteStore((s) => s.setDraft)
  const phase = usePaletteStore((s) => s.phase)
  const starting = phase === 'starting'

  // Grows with the text up to a few lines, then scrolls.
  useEffect(() => {
    const el = inputRef.current
    if (!el) return
    el.style.height = 'auto'
    el.style.height = `${Math.min(el.scrollHeight, MAX_INPUT_HEIGHT)}px`
  }, [draft, inputRef])

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return
    // Enter and Ctrl/⌘+Enter run; Shift+Enter is a new line.
    if (event.shiftKey && !isModKey(event)) return
    event.preventDefault()
    if (!event.repeat) void submitTask()
  }

  return (
    <div className="palette-input-row">
      <span className="palette-mark" aria-hidden="true">
        D
      </span>
      <textarea
        ref={inputRef}
        className="palette-input"
        data-testid="palette-input"
        rows={1}
        autoFocus
        value={draft}
        readOnly={starting}
        maxLength={100_000}
        placeholder={t('palette.placeholder')}
        aria-label={t('palette.placeholder')}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <button
        type="button"
        className="btn btn-primary palette-run"
        data-testid="palette-submit"
        // Out of the Tab order: Tab goes from the task to the workspace picker (Enter runs from either).
        tabIndex={-1}
        disabled={starting || draft.trim() === ''}
        onClick={() => void submitTask()}
      >
        {starting ? <Spinner size={13} /> : <SendIcon size={14} />}
        {t('palette.run')}
      </button>
    </div>
  )
}

function IdleView({ inputRef }: { inputRef: RefObject<HTMLTextAreaElement | null> }) {
  const t = useT()
  const error = usePaletteStore((s) => s.error)
  const starting = usePaletteStore((s) => s.phase === 'starting')
  return (
    <>
      <TaskInput inputRef={inputRef} />
      {error && (
        <div className="palette-error" role="alert" data-testid="palette-error">
          {t(error.kind === 'start' ? 'palette.startFailed' : 'palette.openFailed', { message: t.error(error.error) })}
        </div>
      )}
      <WorkspacePicker onSubmit={() => void submitTask()} disabled={starting} />
      <footer className="palette-footer">
        <span className="palette-hint">{t(inElectron() ? 'palette.hintIdle' : 'palette.hintIdleWeb')}</span>
        <ApplyAtEndSwitch scope={PALETTE_TASKS} disabled={starting} />
      </footer>
    </>
  )
}

function TaskView() {
  const t = useT()
  const task = usePaletteStore((s) => s.task)
  const workspace = usePaletteStore((s) => s.workspace)
  const runId = usePaletteStore((s) => s.runId)
  const error = usePaletteStore((s) => s.error)
  const snapshot = useChatStore((s) => s.snapshot)
  const run = snapshot?.runs.find((r) => r.id === runId)
  const status = taskStatus(run, snapshot?.toolCalls ?? [])
  const steps = snapshot?.toolCalls.filter((c) => c.runId === runId).length ?? 0
  const running = status === 'running' || status === 'awaiting_approval' || status === 'starting'
  const openRef = useRef<HTMLButtonElement>(null)

  // The input is gone: the keyboard lands on "Open in DeskClaw" (Enter opens it, Esc closes).
  useEffect(() => {
    if (!isDialogOpen()) openRef.current?.focus()
  }, [])

  return (
    <>
      <header className="palette-task-head">
        <span className="palette-mark" aria-hidden="true">
          D
        </span>
        <div className="palette-task-text" data-testid="palette-task" title={task ?? undefined}>
          {task}
        </div>
        {workspace && (
          <span className="palette-task-workspace" data-testid="palette-task-workspace" data-path={workspace} title={workspace}>
            <FolderIcon size={13} />
            {splitPath(workspace).name}
          </span>
        )}
      </header>
      <TaskProgress snapshot={snapshot} runId={runId} status={status} />
      {error && (
        <div className="palette-error" role="alert" data-testid="palette-error">
          {t(error.kind === 'start' ? 'palette.startFailed' : 'palette.openFailed', { message: t.error(error.error) })}
        </div>
      )}
      <footer className="palette-footer">
        <span className={`palette-status status-${status}`} data-testid="palette-status" data-status={status}>
          {(status === 'running' || status === 'starting') && <Spinner size={11} />}
          {statusText(t, status)}
          {steps > 0 && <span className="palette-steps-count">· {steps === 1 ? t('palette.step') : t('palette.steps', { n: steps })}</span>}
        </span>
        <span className="palette-spacer" />
        {running && (
          <button type="button" className="btn btn-small" data-testid="palette-stop" onClick={() => void cancelTask()}>
            <StopIcon size={12} />
            {t('palette.stop')}
          </button>
        )}
        <button type="button" className="btn btn-small" data-testid="palette-new" onClick={() => resetPalette()}>
          {t('palette.newTask')}
        </button>
        <button
          ref={openRef}
          type="button"
          className="btn btn-small btn-primary"
          data-testid="palette-open"
          onClick={() => void openInDeskclaw()}
        >
          {t('palette.open')}
        </button>
      </footer>
      <div className="palette-hint palette-hint-task">
        {t(inElectron() ? 'palette.hintTask' : 'palette.hintTaskWeb', { mod: modKeyLabel })}
      </div>
    </>
  )
}

export function PaletteApp() {
  const t = useT()
  const language = useLanguage()
  const phase = usePaletteStore((s) => s.phase)
  const inputRef = useRef<HTMLTextAreaElement>(null)

  useEffect(() => startPalette(), [])
  useAppliedTheme()

  useEffect(() => {
    document.documentElement.lang = language
    document.title = `${t('palette.title')} · DeskClaw`
  }, [language, t])

  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      // A question (the approval dialog) takes the keyboard while open: its Esc denies.
      if (event.defaultPrevented || isDialogOpen()) return
      if (event.key === 'Escape') {
        event.preventDefault()
        if (!event.repeat) closePalette()
      } else if (isModKey(event) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 'n') {
        event.preventDefault()
        resetPalette()
        requestAnimationFrame(() => inputRef.current?.focus())
      }
    }
    // Shown again (the Electron window, or this tab): a fresh look at the workspaces, the caret in the input.
    const onFocus = () => {
      if (usePaletteStore.getState().phase !== 'idle') return
      void loadWorkspaces(true)
      if (!isDialogOpen() && !document.activeElement?.closest('.palette-workspaces')) inputRef.current?.focus()
    }
    window.addEventListener('keydown', onKeyDown)
    window.addEventListener('focus', onFocus)
    return () => {
      window.removeEventListener('keydown', onKeyDown)
      window.removeEventListener('focus', onFocus)
    }
  }, [])

  // Back to the input (New task, Esc in the browser): the caret goes with it.
  useEffect(() => {
    if (phase === 'idle') inputRef.current?.focus()
  }, [phase])

  return (
    <div className={`palette${inElectron() ? ' palette-window' : ''}`} data-testid="palette" data-phase={phase}>
      <ConnectionBanner />
      {phase === 'task' ? <TaskView /> : <IdleView inputRef={inputRef} />}
      <ApprovalModal />
      <Notices />
    </div>
  )
}
