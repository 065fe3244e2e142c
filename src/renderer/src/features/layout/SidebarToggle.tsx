import { useT } from '../../i18n'
import { modKeyLabel } from '../common'
import { SidebarIcon } from './icons'
import { useSidebarStore } from './sidebar-state'
import { useNarrowWindow } from './use-narrow-window'

export type TogglePlace = 'sidebar' | 'header'

/**
 * Shows or hides the sidebar: `sidebar` sits in the sidebar (it hides it), `header` in the chat
 * header while the sidebar is hidden (it shows it). Ctrl+B / ⌘B does the same (App).
 */
export function SidebarToggle({ place }: { place: TogglePlace }) {
  const t = useT()
  const narrow = useNarrowWindow()
  const toggle = useSidebarStore((s) => s.toggle)
  const label = place === 'sidebar' ? t('layout.collapseSidebar') : t('layout.expandSidebar')
  return (
    <button
      type="button"
      className="icon-button sidebar-toggle"
      data-testid={place === 'sidebar' ? 'sidebar-collapse' : 'sidebar-expand'}
      data-sidebar-toggle={place}
      aria-label={label}
      aria-expanded={place === 'sidebar'}
      aria-controls="app-sidebar"
      title={`${label} (${modKeyLabel}+B)`}
      onClick={() => {
        toggle(narrow)
        // In a narrow window focus follows the drawer: into it when it opens, back to the header when it closes.
        if (narrow) focusSidebarToggle(place === 'header' ? 'sidebar' : 'header')
      }}
    >
      <SidebarIcon />
    </button>
  )
}

/** Puts focus on a toggle once it is rendered (after the sidebar opened or closed). */
export function focusSidebarToggle(place: TogglePlace): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-sidebar-toggle="${place}"]`)?.focus())
}

/** Esc or a click beside the drawer: it closes, and focus goes back to the toggle that opened it. */
export function dismissDrawer(): void {
  useSidebarStore.getState().closeDrawer()
  focusSidebarToggle('header')
}
