/**
 * Whether the conversation sidebar shows. A wide window docks it, and the user may collapse it
 * (remembered in this browser); below NARROW_WIDTH it is a drawer over the chat, closed until
 * asked for and closed again once a conversation is picked.
 */
import { create } from 'zustand'

const STORAGE_KEY = 'deskclaw.sidebarCollapsed'

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === '1'
  } catch {
    return false
  }
}

function saveCollapsed(collapsed: boolean): void {
  try {
    localStorage.setItem(STORAGE_KEY, collapsed ? '1' : '0')
  } catch {
    // No storage: the choice lasts until the page reloads.
  }
}

interface SidebarState {
  /** The docked sidebar is hidden (wide windows). */
  collapsed: boolean
  /** The drawer is open (narrow windows). */
  drawerOpen: boolean
  /** Ctrl+B and the toggle buttons: collapse/expand when wide, open/close the drawer when narrow. */
  toggle(narrow: boolean): void
  closeDrawer(): void
}

export const useSidebarStore = create<SidebarState>((set, get) => ({
  collapsed: readCollapsed(),
  drawerOpen: false,
  toggle(narrow) {
    if (narrow) {
      set({ drawerOpen: !get().drawerOpen })
    } else {
      const collapsed = !get().collapsed
      saveCollapsed(collapsed)
      set({ collapsed })
    }
  },
  closeDrawer() {
    if (get().drawerOpen) set({ drawerOpen: false })
  }
}))
