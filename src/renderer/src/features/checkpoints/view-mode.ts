/** Side by side or unified: the diff view's mode, remembered across dialogs and reloads. */
import { create } from 'zustand'

export type DiffViewMode = 'split' | 'unified'
const KEY = 'deskclaw.diffView'

function stored(): DiffViewMode {
  try {
    return localStorage.getItem(KEY) === 'unified' ? 'unified' : 'split'
  } catch {
    return 'split'
  }
}

export const useDiffViewMode = create<{ mode: DiffViewMode; setMode(mode: DiffViewMode): void }>((set) => ({
  mode: stored(),
  setMode(mode) {
    try {
      localStorage.setItem(KEY, mode)
    } catch {
      // Not remembered; still switched.
    }
    set({ mode })
  }
}))
