import { create } from 'zustand'
import type { AgentEvent } from '../../../shared/agent-events'
import type {
  BridgeResult,
  ConversationExport,
  ConversationExportFormat,
  ConversationSearchResult,
  ConversationSummary,
  Language
} from '../../../shared/bridge'
import { getDeskclawApi } from '../bridge'
import { useChatStore } from './chat'
import { reduceRunningConversations, sortConversations } from './reducers'

const SELECTED_KEY = 'deskclaw.selectedConversation'

function rememberSelected(id: string | null): void {
  try {
    if (id) localStorage.setItem(SELECTED_KEY, id)
    else localStorage.removeItem(SELECTED_KEY)
  } catch {
    // Storage may be unavailable (privacy mode); remembering the selection is only a nicety.
  }
}

export function rememberedConversation(): string | null {
  try {
    return localStorage.getItem(SELECTED_KEY)
  } catch {
    return null
  }
}

interface ConversationsState {
  list: ConversationSummary[]
  loaded: boolean
  selectedId: string | null
  /** Conversations with a run going (from the event stream). */
  running: ReadonlySet<string>
  load(): Promise<BridgeResult<ConversationSummary[]>>
  setSelected(id: string | null): void
  create(title?: string): Promise<BridgeResult<ConversationSummary>>
  remove(id: string): Promise<BridgeResult<Record<string, never>>>
  rename(id: string, title: string): Promise<BridgeResult<ConversationSummary>>
  pin(id: string, pinned: boolean): Promise<BridgeResult<ConversationSummary>>
  search(query: string): Promise<BridgeResult<ConversationSearchResult[]>>
  exportFile(id: string, format: ConversationExportFormat, language: Language): Promise<BridgeResult<ConversationExport>>
  applyEvent(event: AgentEvent): void
}

export const useConversationsStore = create<ConversationsState>((set, get) => ({
  list: [],
  loaded: false,
  selectedId: null,
  running: new Set(),

  async load() {
    const result = await getDeskclawApi().invoke('conversations.list', {})
    if (result.ok) set({ list: sortConversations(result.data), loaded: true })
    return result
  },

  setSelected(id) {
    rememberSelected(id)
    set({ selectedId: id })
  },

  async create(title) {
    const result = await getDeskclawApi().invoke('conversations.create', title ? { title } : {})
    if (result.ok) {
      const others = get().list.filter((c) => c.id !== result.data.id)
      set({ list: sortConversations([result.data, ...others]) })
    }
    return result
  },

  async remove(id) {
    const result = await getDeskclawApi().invoke('conversations.delete', { id })
    if (result.ok || result.error.code === 'NOT_FOUND') {
      set({ list: get().list.filter((c) => c.id !== id) })
    }
    return result as BridgeResult<Record<string, never>>
  },

  async rename(id, title) {
    const result = await getDeskclawApi().invoke('conversations.rename', { id, title })
    if (result.ok) {
      set({ list: sortConversations(get().list.map((c) => (c.id === id ? result.data : c))) })
    }
    return result
  },

  async pin(id, pinned) {
    const result = await getDeskclawApi().invoke('conversations.pin', { id, pinned })
    if (result.ok) {
      set({ list: sortConversations(get().list.map((c) => (c.id === id ? result.data : c))) })
    }
    return result
  },

  search(query) {
    return getDeskclawApi().invoke('conversations.search', { query: query.slice(0, 200) })
  },

  exportFile(id, format, language) {
    // The open conversation exports the message versions on screen (docs/architecture.md, "Message versions").
    const chat = useChatStore.getState()
    const choices = chat.conversationId === id && Object.keys(chat.choices).length > 0 ? { choices: chat.choices } : {}
    return getDeskclawApi().invoke('conversations.export', { id, format, language, ...choices })
  },

  applyEvent(event) {
    const running = reduceRunningConversations(get().running, event)
    let list = get().list
    if (event.type === 'run_started' || event.type === 'run_completed' || event.type === 'run_failed') {
      // Keep the active conversation at the top without waiting for conversations_changed.
      list = sortConversations(
        list.map((c) => (c.id === event.conversationId && c.updatedAt < event.at ? { ...c, updatedAt: event.at } : c))
      )
    }
    if (running !== get().running || list !== get().list) set({ running, list })
  }
}))
