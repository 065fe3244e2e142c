/** The Memory panel, the timeline's Undo on a memory save, and the sidebar's icon for it (docs/tools.md, "Memory"). */
export { MemoryPanel } from './MemoryPanel'
export { MemorySaveUndo } from './MemorySaveUndo'
export { MemoryIcon } from './icons'
