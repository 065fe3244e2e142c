/**
 * The Memory panel's list and the timeline's "Undo" on saves (docs/tools.md, "Memory"). Main says
 * `memories_changed` after every save, change and deletion; the list and the open conversation's
 * saves are then asked for again.
 */
import { create } from 'zustand'
import type { AppErrorShape } from '../../../shared/errors'
import type { Memory, MemoryFilter, MemoryScope } from '../../../shared/bridge'
import { getDeskclawApi } from '../bridge'
import { useChatStore } from './chat'

type Outcome = { ok: true } | { ok: false; error: AppErrorShape }

interface MemoriesState {
  /** The panel is open: changes reload the list. */
  open: boolean
  query: string
  filter: MemoryFilter
  memories: Memory[]
  total: number
  loaded: boolean
  error: AppErrorShape | null
  /** The open conversation's saves that still exist: tool call id → memory id. */
  saves: Record<string, string>
  savesOf: string | null
  /** Calls whose save was undone here (the card says so instead of offering Undo). */
  undone: Record<string, true>
  setOpen(open: boolean): void
  search(query: string, filter: MemoryFilter): Promise<void>
  load(): Promise<void>
  update(id: string, change: { text?: string; scope?: MemoryScope }): Promise<Outcome>
  remove(id: string): Promise<Outcome>
  loadSaves(conversationId: string | null): Promise<void>
  undoSave(callId: string): Promise<Outcome>
  changed(): void
}

const LIST_LIMIT = 200
/** Answers to a search the user has typed past are dropped (their list would flash back). */
let listRequest = 0

export const useMemoriesStore = create<MemoriesState>((set, get) => ({
  open: false,
  query: '',
  filter: 'all',
  memories: [],
  total: 0,
  loaded: false,
  error: null,
  saves: {},
  savesOf: null,
  undone: {},
  setOpen(open) {
    set({ open })
    if (open) void get().load()
  },
  async search(query, filter) {
    set({ query, filter })
    await get().load()
  },
  async load() {
    const mine = ++listRequest
    const { query, filter } = get()
    const result = await getDeskclawApi().invoke('memories.list', { query: query.trim() || undefined, filter, limit: LIST_LIMIT })
    if (mine !== listRequest) return
    if (result.ok) set({ memories: result.data.memories, total: result.data.total, loaded: true, error: null })
    else set({ loaded: true, error: result.error })
  },
  async update(id, change) {
    const result = await getDeskclawApi().invoke('memories.update', { id, ...change })
    return result.ok ? { ok: true } : { ok: false, error: result.error }
  },
  async remove(id) {
    const result = await getDeskclawApi().invoke('memories.delete', { id })
    return result.ok ? { ok: true } : { ok: false, error: result.error }
  },
  async loadSaves(conversationId) {
    if (!conversationId) return set({ saves: {}, savesOf: null })
    const result = await getDeskclawApi().invoke('memories.savedIn', { conversationId })
    // Another conversation may have been opened meanwhile.
    if (!result.ok || useChatStore.getState().conversationId !== conversationId) return
    set({ saves: Object.fromEntries(result.data.saves.map((save) => [save.callId, save.memoryId])), savesOf: conversationId })
  },
  async undoSave(callId) {
    const memoryId = get().saves[callId]
    if (!memoryId) return { ok: true }
    const outcome = await get().remove(memoryId)
    if (outcome.ok) set({ undone: { ...get().undone, [callId]: true } })
    return outcome
  },
  changed() {
    if (get().open) void get().load()
    void get().loadSaves(useChatStore.getState().conversationId)
  }
}))

// The open conversation's saves follow the conversation shown.
useChatStore.subscribe((state, previous) => {
  if (state.conversationId !== previous.conversationId) void useMemoriesStore.getState().loadSaves(state.conversationId)
})
