/** The window's layout: the sidebar docked, collapsed, or a drawer in narrow windows, and its toggles. */
export { useSidebarStore } from './sidebar-state'
export { dismissDrawer, focusSidebarToggle, SidebarToggle } from './SidebarToggle'
export { isNarrowWindow, NARROW_WIDTH, useNarrowWindow } from './use-narrow-window'
