/** The sidebar: search (Ctrl/⌘+K), pinned and other conversations (new, open, pin, rename, export, delete), settings and language. */
export { Sidebar } from './Sidebar'
