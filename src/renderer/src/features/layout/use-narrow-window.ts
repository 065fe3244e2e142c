import { useSyncExternalStore } from 'react'

/** Below this width the sidebar would squeeze the chat: it becomes a drawer (features/layout/layout.css uses the same number). */
export const NARROW_WIDTH = 720

const query = `(max-width: ${NARROW_WIDTH - 0.02}px)`

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia(query)
  list.addEventListener('change', onChange)
  return () => list.removeEventListener('change', onChange)
}

/** True while the window is narrower than NARROW_WIDTH (outside React: in a key handler). */
export const isNarrowWindow = (): boolean => window.matchMedia(query).matches

/** True while the window is narrower than NARROW_WIDTH, re-rendering when that changes. */
export function useNarrowWindow(): boolean {
  return useSyncExternalStore(subscribe, isNarrowWindow)
}
