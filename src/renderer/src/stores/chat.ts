import { create } from 'zustand'
import type { AgentEvent } from '../../../shared/agent-events'
import type { BranchChoices } from '../../../shared/branches'
import type { AppErrorShape } from '../../../shared/errors'
import { getDeskclawApi } from '../bridge'
import { coalesceDeltas } from './coalesce-deltas'
import { type ChatSnapshot, emptySnapshot, ensureRunStarted, reduceChat, snapshotFromDetail } from './reducers'

interface ChatState {
  /** The open conversation (null: none). */
  conversationId: string | null
  snapshot: ChatSnapshot | null
  status: 'idle' | 'loading' | 'ready' | 'error'
  error: AppErrorShape | null
  open(conversationId: string | null): Promise<void>
  /** Reload the open conversation (after a reconnect: events may have been missed). */
  refresh(): Promise<void>
  applyEvent(event: AgentEvent, seq: number): void
  /** Several events in order, in one state update (the live stream, batched per frame: event-batch.ts). */
  applyEvents(entries: ReadonlyArray<{ event: AgentEvent; seq: number }>): void
  /** `agent.send` answered: show the user's message and the run even if run_started is late. */
  noteSent(run: {
    runId: string
    conversationId: string
    prompt: string
    at: number
    question?: { id: string; parentRunId: string | null }
  }): void
  /** The versions the person paged to, per fork (stores/versions.ts); kept per open conversation. */
  choices: BranchChoices
  /** Shows `id` at this fork; null: back to the newest (after regenerate or edit). */
  choose(forkKey: string, id: string | null): void
}

/** Events for the conversation being loaded, applied on top of the snapshot when it arrives. */
let buffered: Array<{ event: AgentEvent; seq: number }> = []
let loadToken = 0
let loading = false
/**
 * The shown snapshot holds every agent event up to this seq (conversations.get's lastEventSeq). A read
 * commits and publishes the queued events before it answers (docs/architecture.md, "One event stream"),
 * so they can reach applyEvents after the snapshot, from the frame batcher: they are in it already.
 */
let heldSeq = 0

export const useChatStore = create<ChatState>((set, get) => {
  async function load(conversationId: string, keepVisible: boolean): Promise<void> {
    const token = ++loadToken
    buffered = []
    loading = true
    set({
      conversationId,
      ...(conversationId !== get().conversationId ? { choices: {} } : {}),
      status: keepVisible ? get().status : 'loading',
      snapshot: keepVisible ? get().snapshot : null,
      error: null
    })
    const result = await getDeskclawApi().invoke('conversations.get', { id: conversationId })
    if (token !== loadToken) return
    loading = false
    const events = buffered
    buffered = []
    if (!result.ok) {
      set({ status: 'error', error: result.error, snapshot: keepVisible ? get().snapshot : null })
      return
    }
    // Events that raced the load: only those the snapshot does not already hold.
    heldSeq = result.data.lastEventSeq
    const snapshot = events
      .filter((entry) => entry.seq > result.data.lastEventSeq)
      .reduce((state, entry) => reduceChat(state, entry.event), snapshotFromDetail(result.data))
    set({ status: 'ready', snapshot, error: null })
  }

  return {
    conversationId: null,
    snapshot: null,
    status: 'idle',
    error: null,
    choices: {},

    choose(forkKey, id) {
      const { [forkKey]: _previous, ...rest } = get().choices
      set({ choices: id === null ? rest : { ...rest, [forkKey]: id } })
    },

    async open(conversationId) {
      if (!conversationId) {
        loadToken++
        loading = false
        buffered = []
        heldSeq = 0
        set({ conversationId: null, snapshot: null, status: 'idle', error: null, choices: {} })
        return
      }
      await load(conversationId, false)
    },

    async refresh() {
      const id = get().conversationId
      if (id) await load(id, get().status === 'ready')
    },

    applyEvent(event, seq) {
      get().applyEvents([{ event, seq }])
    },

    applyEvents(entries) {
      const { conversationId, snapshot } = get()
      const mine = entries.filter((entry) => entry.event.conversationId === conversationId)
      // Buffered one by one (the coming snapshot's seq decides what it already holds); applied with deltas joined.
      if (loading) buffered.push(...mine)
      if (!snapshot) return
      const fresh = mine.filter((entry) => entry.seq > heldSeq)
      const next = coalesceDeltas(fresh.map((entry) => entry.event)).reduce(reduceChat, snapshot)
      if (next !== snapshot) set({ snapshot: next })
    },

    noteSent(run) {
      const { snapshot, conversationId } = get()
      if (run.conversationId !== conversationId) return
      const started: AgentEvent = { type: 'run_started', ...run, model: '' }
      // No seq from main yet: it sorts after any snapshot, and run_started is idempotent.
      if (loading) buffered.push({ event: started, seq: Number.MAX_SAFE_INTEGER })
      if (snapshot || !loading) {
        set({ snapshot: ensureRunStarted(snapshot ?? emptySnapshot(run.conversationId), run), status: 'ready' })
      }
    }
  }
})
