/**
 * What the UI does, across stores: start-up, event routing, and the user actions that touch
 * more than one store (select, create, delete, send, cancel).
 */
import type { BridgeEvent, BridgeResult } from '../../../shared/bridge'
import type { MessageAttachmentInput } from '../../../shared/message-attachments'
import { getConnectionMonitor, getDeskclawApi } from '../bridge'
import { applyAtEndFor, useApplyAtEndStore } from './apply-at-end'
import { useApprovalsStore } from './approvals'
import { useChatStore } from './chat'
import { rememberedConversation, useConversationsStore } from './conversations'
import { useDesktopStore } from './desktop'
import { useDevicesStore } from './devices'
import { useMemoriesStore } from './memories'
import { showNotice } from './notifications'
import { type AgentEventEntry, createEventBatcher } from './event-batch'
import { activeRun } from './reducers'
import { shownTip } from './resend'
import { useSettingsStore } from './settings'
import { useToolsStore } from './tools'

/** Live agent events, in order, into the stores: the chat's in one update per batch. */
function applyAgentEvents(entries: AgentEventEntry[]): void {
  const conversations = useConversationsStore.getState()
  const approvals = useApprovalsStore.getState()
  for (const { event } of entries) {
    conversations.applyEvent(event)
    approvals.applyEvent(event)
  }
  useChatStore.getState().applyEvents(entries)
}

/** Agent events wait for the next animation frame (a question does not: event-batch.ts). */
const agentEvents = createEventBatcher(applyAgentEvents)

function routeEvent(event: BridgeEvent): void {
  if (event.kind === 'agent') {
    agentEvents.push({ event: event.event, seq: event.seq })
    return
  }
  // Anything else sees the agent events that came before it.
  agentEvents.flush()
  switch (event.kind) {
    case 'conversations_changed':
      void useConversationsStore.getState().load()
      break
    case 'settings_changed':
      useSettingsStore.getState().applyRemote(event.settings)
      useDesktopStore.getState().applySettings(event.settings)
      break
    case 'tools_changed':
      void useToolsStore.getState().load()
      break
    case 'desktop_control':
      useDesktopStore.getState().apply(event.control)
      break
    case 'devices_changed':
      useDevicesStore.getState().applyChanged(event)
      break
    case 'serial_data':
      useDevicesStore.getState().applySerialData(event)
      break
    case 'serial_closed':
      useDevicesStore.getState().applySerialClosed(event)
      break
    case 'memories_changed':
      useMemoriesStore.getState().changed()
      break
    case 'notification':
      void showNotice(event.notice)
      break
    case 'show_conversation':
      // "Open in DeskClaw" from the palette: a conversation this window may not list yet.
      if (!useConversationsStore.getState().list.some((c) => c.id === event.conversationId)) {
        void useConversationsStore.getState().load()
      }
      void selectConversation(event.conversationId)
      break
  }
}

async function loadAll(initial: boolean): Promise<void> {
  const settings = useSettingsStore.getState().load()
  const approvals = useApprovalsStore.getState().load()
  // Approvals and previews are shown through the tool catalogue (their titles and labels are its keys).
  const tools = useToolsStore.getState().load()
  // Whether a run holds the keyboard and mouse (the banner, and its Stop).
  const desktop = useDesktopStore.getState().load()
  const conversations = await useConversationsStore.getState().load()
  if (initial) {
    const remembered = rememberedConversation()
    if (conversations.ok && remembered && conversations.data.some((c) => c.id === remembered)) {
      await selectConversation(remembered)
    }
  } else {
    const selected = useConversationsStore.getState().selectedId
    if (selected && conversations.ok && !conversations.data.some((c) => c.id === selected)) {
      await selectConversation(null)
    } else {
      await useChatStore.getState().refresh()
    }
  }
  await Promise.all([settings, approvals, tools, desktop])
}

/** Subscribes to events and loads the first state; returns a stop function (React StrictMode-safe). */
export function startApp(): () => void {
  const api = getDeskclawApi()
  const offEvents = api.onEvent(routeEvent)
  const monitor = getConnectionMonitor()
  let wasDown = false
  const offConnection = monitor.subscribe((state) => {
    if (state.status === 'disconnected') wasDown = true
    if (state.status === 'connected' && wasDown) {
      wasDown = false
      // Events sent while we were away are gone: reload what they would have changed.
      void loadAll(false)
    }
  })
  void loadAll(true)
  return () => {
    offEvents()
    offConnection()
    agentEvents.flush()
  }
}

export async function selectConversation(id: string | null): Promise<void> {
  if (useConversationsStore.getState().selectedId === id && useChatStore.getState().conversationId === id) return
  useConversationsStore.getState().setSelected(id)
  await useChatStore.getState().open(id)
}

/**
 * Opens a fresh conversation. If the open one is still empty it is reused, so pressing Ctrl+N
 * twice does not leave blank conversations behind.
 */
export async function newConversation(): Promise<BridgeResult<unknown>> {
  const chat = useChatStore.getState()
  const selectedId = useConversationsStore.getState().selectedId
  if (
    selectedId &&
    chat.conversationId === selectedId &&
    chat.status === 'ready' &&
    chat.snapshot &&
    chat.snapshot.messages.length === 0 &&
    chat.snapshot.runs.length === 0
  ) {
    return { ok: true, data: selectedId }
  }
  const result = await useConversationsStore.getState().create()
  if (result.ok) await selectConversation(result.data.id)
  return result
}

export async function deleteConversation(id: string): Promise<BridgeResult<unknown>> {
  const result = await useConversationsStore.getState().remove(id)
  if ((result.ok || result.error.code === 'NOT_FOUND') && useConversationsStore.getState().selectedId === id) {
    await selectConversation(null)
  }
  return result
}

function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]!.trim()
  return line.length > 60 ? `${line.slice(0, 57)}…` : line
}

/** Sends a message (with its attachments, if any), creating a conversation first when none is open. */
export async function sendMessage(
  text: string,
  attachments?: MessageAttachmentInput[]
): Promise<BridgeResult<{ runId: string; unseenImages?: number }>> {
  let conversationId = useConversationsStore.getState().selectedId
  if (!conversationId) {
    const created = await useConversationsStore.getState().create(titleFrom(text))
    if (!created.ok) return created
    conversationId = created.data.id
    useApplyAtEndStore.getState().adopt(conversationId)
    await selectConversation(conversationId)
  }
  // The run works on a copy when the conversation says so (docs/checkpoints.md, "Apply at the end").
  const applyAtEnd = applyAtEndFor(conversationId)
  // After the answer on screen, which may be an older version (message versions: stores/resend.ts).
  const after = shownTip(conversationId)
  const result = await getDeskclawApi().invoke('agent.send', {
    conversationId,
    text,
    ...(attachments?.length ? { attachments } : {}),
    ...after,
    ...(applyAtEnd ? { applyAtEnd: true } : {})
  })
  if (result.ok) {
    const { question } = result.data
    useChatStore.getState().noteSent({ runId: result.data.runId, conversationId, prompt: text, at: Date.now(), ...(question ? { question } : {}) })
  }
  return result
}

export async function cancelActiveRun(): Promise<void> {
  const run = activeRun(useChatStore.getState().snapshot)
  if (run) await getDeskclawApi().invoke('agent.cancel', { runId: run.id })
}
