import { create } from 'zustand'

/** The composer's text, shared so the empty state's examples can fill it. */
interface DraftState {
  text: string
  focusToken: number
  setText(text: string): void
  /** Fill the composer and move focus into it. */
  fill(text: string): void
  /** Move focus into the composer. */
  focus(): void
}

export const useDraftStore = create<DraftState>((set, get) => ({
  text: '',
  focusToken: 0,
  setText: (text) => set({ text }),
  fill: (text) => set({ text, focusToken: get().focusToken + 1 }),
  focus: () => set({ focusToken: get().focusToken + 1 })
}))
