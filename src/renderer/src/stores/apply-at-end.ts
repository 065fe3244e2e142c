/**
 * "Apply changes at the end" per conversation (docs/checkpoints.md, "Apply at the end"): kept in
 * the renderer's persisted UI state (localStorage), not in the store — a choice of this screen,
 * read when a message is sent. A conversation not created yet uses NEW_CONVERSATION until it is.
 */
import { create } from 'zustand'

const KEY = 'deskclaw.applyAtEnd'
/** The choice made before the first message created the conversation (the chat's empty state, the palette). */
export const NEW_CONVERSATION = '(new)'
/** The quick-command palette's switch: each task it starts is a new conversation. */
export const PALETTE_TASKS = '(palette)'

function read(): Record<string, true> {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? '{}') as unknown
    return value && typeof value === 'object' ? (value as Record<string, true>) : {}
  } catch {
    return {}
  }
}

function write(on: Record<string, true>): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(on))
  } catch {
    // Not remembered across reloads; still used for this one.
  }
}

interface ApplyAtEndState {
  on: Record<string, true>
  set(conversationId: string | null, value: boolean): void
  /** The new conversation's choice becomes this conversation's (its first message created it). */
  adopt(conversationId: string): void
}

export const useApplyAtEndStore = create<ApplyAtEndState>((set, get) => ({
  on: read(),
  set(conversationId, value) {
    const key = conversationId ?? NEW_CONVERSATION
    const on = { ...get().on }
    if (value) on[key] = true
    else delete on[key]
    write(on)
    set({ on })
  },
  adopt(conversationId) {
    if (!get().on[NEW_CONVERSATION]) return
    const on = { ...get().on, [conversationId]: true as const }
    delete on[NEW_CONVERSATION]
    write(on)
    set({ on })
  }
}))

export function applyAtEndFor(conversationId: string | null): boolean {
  return useApplyAtEndStore.getState().on[conversationId ?? NEW_CONVERSATION] === true
}
