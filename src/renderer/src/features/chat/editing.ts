import { create } from 'zustand'

/**
 * The question being edited in place (Edit and resend) and its text so far. A store, not component
 * state: the message list is virtualised, and the draft must survive its row scrolling away.
 */
interface EditingState {
  messageId: string | null
  text: string
  start(messageId: string, text: string): void
  setText(text: string): void
  stop(): void
}

export const useEditingStore = create<EditingState>((set) => ({
  messageId: null,
  text: '',
  start: (messageId, text) => set({ messageId, text }),
  setText: (text) => set({ text }),
  stop: () => set({ messageId: null, text: '' })
}))
