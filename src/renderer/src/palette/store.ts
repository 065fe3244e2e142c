/**
 * The quick-command palette's state: the task being typed, the workspace it will run in, and the one
 * conversation it started. The run itself lives in the shared stores (the chat store holds the
 * palette's conversation, the approvals store only that conversation's questions), so progress,
 * tool calls and approvals are folded by the same reducers as in the main window.
 */
import { create } from 'zustand'
import type { BridgeEvent, BridgeResult } from '../../../shared/bridge'
import type { AppErrorShape } from '../../../shared/errors'
import { getConnectionMonitor, getDeskclawApi } from '../bridge'
import { takeBridgeToken, windowTokenPlace } from '../bridge/token'
import { createEventBatcher } from '../stores/event-batch'
import { applyAtEndFor, PALETTE_TASKS, useApplyAtEndStore, useApprovalsStore, useChatStore, useConversationsStore, useSettingsStore, useToolsStore } from '../stores'

export type PalettePhase =
  /** Typing a task. */
  | 'idle'
  /** conversations.create / agent.send on their way. */
  | 'starting'
  /** A task was started: its progress and answer are shown. */
  | 'task'

interface PaletteState {
  phase: PalettePhase
  draft: string
  /** Recent workspaces, most recent first (`workspaces.recent`, else the Settings workspace). */
  workspaces: string[]
  /** Index into `workspaces` of the chosen one. */
  selected: number
  /** The task as submitted. */
  task: string | null
  /** The workspace the task runs in (null: the Settings one). */
  workspace: string | null
  conversationId: string | null
  runId: string | null
  /** Why the last submit or "Open in DeskClaw" failed. */
  error: { kind: 'start' | 'open'; error: AppErrorShape } | null
  setDraft(draft: string): void
  select(index: number): void
  /** Moves the choice by `delta` (arrows), wrapping around. */
  move(delta: number): void
}

export const usePaletteStore = create<PaletteState>((set, get) => ({
  phase: 'idle',
  draft: '',
  workspaces: [],
  selected: 0,
  task: null,
  workspace: null,
  conversationId: null,
  runId: null,
  error: null,
  setDraft: (draft) => set({ draft }),
  select: (index) => {
    const count = get().workspaces.length
    if (count > 0) set({ selected: Math.min(Math.max(0, index), count - 1) })
  },
  move: (delta) => {
    const count = get().workspaces.length
    if (count > 0) set({ selected: (((get().selected + delta) % count) + count) % count })
  }
}))

/** True in the Electron palette window (the preload's bridge); false when served by `deskclaw web`. */
export const inElectron = (): boolean => typeof window !== 'undefined' && window.deskclaw !== undefined

function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]!.trim()
  return line.length > 60 ? `${line.slice(0, 57)}…` : line
}

/**
 * Asks for the recent workspaces and chooses the most recent; `keepChoice` keeps the one chosen
 * now if it is still listed (the list refreshed while a task is being typed).
 */
export async function loadWorkspaces(keepChoice = false): Promise<void> {
  const api = getDeskclawApi()
  const result = await api.invoke('workspaces.recent', {})
  let workspaces: string[]
  if (result.ok) {
    workspaces = result.data.workspaces
  } else {
    // Older main without workspaces.recent: the Settings workspace is the one choice.
    const settings = useSettingsStore.getState().settings ?? (await settingsNow())
    workspaces = settings ? [settings.workspace] : []
  }
  const { workspaces: before, selected } = usePaletteStore.getState()
  const chosen = keepChoice ? before[selected] : undefined
  const index = chosen !== undefined ? workspaces.indexOf(chosen) : -1
  usePaletteStore.setState({ workspaces, selected: index === -1 ? 0 : index })
}

async function settingsNow() {
  const result = await getDeskclawApi().invoke('settings.get', {})
  return result.ok ? result.data : null
}

/** Only the palette's own conversation's questions are shown here (the main window shows them all). */
async function loadApprovals(): Promise<void> {
  const id = usePaletteStore.getState().conversationId
  if (!id) {
    useApprovalsStore.setState({ pending: [] })
    return
  }
  const result = await getDeskclawApi().invoke('approvals.pending', {})
  if (result.ok && usePaletteStore.getState().conversationId === id) {
    useApprovalsStore.setState({ pending: result.data.filter((a) => a.conversationId === id) })
  }
}

/** The palette's conversation's events, one state update per animation frame (a question at once), as in the main window. */
const agentEvents = createEventBatcher((entries) => {
  const approvals = useApprovalsStore.getState()
  for (const { event } of entries) approvals.applyEvent(event)
  useChatStore.getState().applyEvents(entries)
})

function routeEvent(event: BridgeEvent): void {
  if (event.kind === 'agent') {
    const id = usePaletteStore.getState().conversationId
    if (id && event.event.conversationId === id) agentEvents.push({ event: event.event, seq: event.seq })
    return
  }
  agentEvents.flush()
  switch (event.kind) {
    case 'settings_changed':
      useSettingsStore.getState().applyRemote(event.settings)
      break
    case 'tools_changed':
      void useToolsStore.getState().load()
      break
  }
}

async function loadAll(): Promise<void> {
  // Settings first: the language, and the fallback workspace.
  await useSettingsStore.getState().load()
  await Promise.all([useToolsStore.getState().load(), loadWorkspaces(true), loadApprovals(), useChatStore.getState().refresh()])
}

/** Subscribes to events and loads the first state; returns a stop function (React StrictMode-safe). */
export function startPalette(): () => void {
  const api = getDeskclawApi()
  const offEvents = api.onEvent(routeEvent)
  let wasDown = false
  const offConnection = getConnectionMonitor().subscribe((state) => {
    if (state.status === 'disconnected') wasDown = true
    if (state.status === 'connected' && wasDown) {
      wasDown = false
      // Events sent while we were away are gone: reload what they would have changed.
      void loadAll()
    }
  })
  void loadAll()
  return () => {
    offEvents()
    offConnection()
    agentEvents.flush()
  }
}

/** Runs the draft in a new conversation in the chosen workspace. */
export async function submitTask(): Promise<BridgeResult<{ runId: string }> | null> {
  const state = usePaletteStore.getState()
  const text = state.draft.trim()
  if (!text || state.phase !== 'idle') return null
  const workspace = state.workspaces[state.selected] ?? null
  usePaletteStore.setState({ phase: 'starting', error: null })
  const api = getDeskclawApi()
  const created = await api.invoke('conversations.create', {
    title: titleFrom(text),
    ...(workspace ? { workspace } : {})
  })
  if (!created.ok) {
    usePaletteStore.setState({ phase: 'idle', error: { kind: 'start', error: created.error } })
    return created
  }
  const conversationId = created.data.id
  usePaletteStore.setState({ conversationId, workspace: created.data.workspace ?? workspace })
  useConversationsStore.setState({ list: [created.data] })
  useApprovalsStore.setState({ pending: [] })
  // Loads the (empty) conversation; events arriving meanwhile are buffered and applied after.
  const opened = useChatStore.getState().open(conversationId)
  // The palette's "Apply changes at the end" switch (docs/checkpoints.md); the new conversation keeps the choice.
  const applyAtEnd = applyAtEndFor(PALETTE_TASKS)
  if (applyAtEnd) useApplyAtEndStore.getState().set(conversationId, true)
  const sent = await api.invoke('agent.send', { conversationId, text, ...(applyAtEnd ? { applyAtEnd: true } : {}) })
  if (!sent.ok) {
    await opened
    // Nothing ran: drop the empty conversation and give the draft back.
    void api.invoke('conversations.delete', { id: conversationId })
    void useChatStore.getState().open(null)
    usePaletteStore.setState({ phase: 'idle', conversationId: null, workspace: null, error: { kind: 'start', error: sent.error } })
    return sent
  }
  usePaletteStore.setState({ phase: 'task', task: text, runId: sent.data.runId, draft: '' })
  useChatStore.getState().noteSent({ runId: sent.data.runId, conversationId, prompt: text, at: Date.now() })
  return sent
}

/** Back to an empty input (the run, if any, goes on; the main window shows it). */
export function resetPalette(): void {
  if (usePaletteStore.getState().phase === 'starting') return
  usePaletteStore.setState({
    phase: 'idle',
    draft: '',
    task: null,
    workspace: null,
    conversationId: null,
    runId: null,
    error: null
  })
  useApprovalsStore.setState({ pending: [] })
  void useChatStore.getState().open(null)
  void loadWorkspaces()
}

export async function cancelTask(): Promise<void> {
  const runId = usePaletteStore.getState().runId
  if (runId) await getDeskclawApi().invoke('agent.cancel', { runId })
}

/**
 * "Open in DeskClaw": the main window selects the conversation (a show_conversation event) and
 * comes forward. The choice is also remembered where the main window looks on start, so a main
 * window that is not open yet opens on it. In the browser, when no main-window tab took it, a
 * new tab opens the main UI.
 */
export async function openInDeskclaw(): Promise<void> {
  const id = usePaletteStore.getState().conversationId
  if (!id) return
  useConversationsStore.getState().setSelected(id)
  const result = await getDeskclawApi().invoke('app.showConversation', { conversationId: id })
  if (!result.ok) usePaletteStore.setState({ error: { kind: 'open', error: result.error } })
  else if (usePaletteStore.getState().error?.kind === 'open') usePaletteStore.setState({ error: null })
  if (!inElectron() && (!result.ok || !result.data.shown)) {
    const token = takeBridgeToken(windowTokenPlace())
    const query = new URLSearchParams({ conversation: id, ...(token ? { token } : {}) })
    window.open(`./?${query.toString()}`, 'deskclaw-main')
  }
}

/**
 * The fragment that asks the Electron palette window to hide (src/main/electron/palette-window.ts
 * watches its page's same-document navigations). A window-only concern, so no bridge call: and
 * window.close() would destroy the window and the task shown in it, not hide it.
 */
export const HIDE_FRAGMENT = '#hide'

function askWindowToHide(): void {
  const { pathname, search } = window.location
  window.history.replaceState(window.history.state, '', `${pathname}${search}${HIDE_FRAGMENT}`)
  // Put back at once: the next Esc is again a change main sees.
  window.history.replaceState(window.history.state, '', `${pathname}${search}`)
}

/**
 * Esc: in the Electron window, hide it (a finished task is cleared first, so the next time starts
 * fresh; a running one stays in view for when it is shown again); in the browser, clear it.
 */
export function closePalette(): void {
  const { phase } = usePaletteStore.getState()
  if (!inElectron()) {
    resetPalette()
    return
  }
  if (phase === 'task' && taskEnded()) resetPalette()
  askWindowToHide()
}

/** Whether the palette's run is over (completed, failed, cancelled or interrupted). */
export function taskEnded(): boolean {
  const { runId } = usePaletteStore.getState()
  const run = useChatStore.getState().snapshot?.runs.find((r) => r.id === runId)
  return run !== undefined && run.status !== 'running'
}
