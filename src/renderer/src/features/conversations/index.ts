/** The sidebar: conversation list, new / select / delete, settings and language. */
export { Sidebar } from './Sidebar'
