import { create } from 'zustand'

export interface Notice {
  id: number
  text: string
  tone: 'error' | 'info'
}

interface NoticesState {
  notices: Notice[]
  push(text: string, tone?: Notice['tone']): void
  dismiss(id: number): void
}

let nextId = 1

/** Short-lived messages (a failed delete, an approval already settled) shown bottom-right. */
export const useNoticesStore = create<NoticesState>((set, get) => ({
  notices: [],
  push(text, tone = 'error') {
    const id = nextId++
    set({ notices: [...get().notices.slice(-3), { id, text, tone }] })
    setTimeout(() => get().dismiss(id), 7000)
  },
  dismiss(id) {
    set({ notices: get().notices.filter((n) => n.id !== id) })
  }
}))
