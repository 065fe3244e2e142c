import { useLayoutEffect } from 'react'
import { create } from 'zustand'
import type { Theme } from '../../../../shared/bridge'
import { useSettingsStore } from '../../stores'
import { applyTheme, rememberedTheme } from './theme'

/** A choice on its way to main: shown (and applied) at once, while settings.update is answered. */
const usePendingTheme = create<{ pending: Theme | null }>(() => ({ pending: null }))

/** The theme in force: a choice being saved, else the settings' once loaded, else the one remembered from last time. */
export function useTheme(): Theme {
  const pending = usePendingTheme((s) => s.pending)
  const saved = useSettingsStore((s) => s.settings?.theme)
  return pending ?? saved ?? rememberedTheme()
}

/** Keeps <html data-theme> in step with the theme in force (a window's root component calls it once). */
export function useAppliedTheme(): void {
  const theme = useTheme()
  // Before paint, so a change never shows a frame in the old colours.
  useLayoutEffect(() => applyTheme(theme), [theme])
}

/**
 * Switches at once and saves it. If main refuses, the settings keep the old theme and the page goes
 * back to it; with no settings loaded (not connected yet) the choice holds for this page, remembered.
 */
export async function changeTheme(theme: Theme): Promise<void> {
  const store = useSettingsStore.getState()
  if (!store.settings) {
    applyTheme(theme)
    return
  }
  usePendingTheme.setState({ pending: theme })
  await store.update({ theme })
  if (usePendingTheme.getState().pending === theme) usePendingTheme.setState({ pending: null })
}
