/**
 * The desktop tools (docs/desktop.md): eyes (screenshot, window list, pointer position) that run
 * without asking, and hands (mouse, keys, text, focus, clipboard) that ask in supervised mode, all
 * through the DesktopService and its driver process.
 */
import { toolPack, type ToolSource } from '../source'
import { createClipboardReadTool } from './clipboard-read'
import { createClipboardWriteTool } from './clipboard-write'
import type { DesktopToolServices } from './common'
import { createCursorPositionTool } from './cursor-position'
import { createKeyPressTool } from './key-press'
import { createMouseClickTool } from './mouse-click'
import { createMouseDragTool } from './mouse-drag'
import { createMouseMoveTool } from './mouse-move'
import { createScreenshotTool } from './screenshot'
import { createScrollTool } from './scroll'
import { createTypeTextTool } from './type-text'
import { createWindowFocusTool } from './window-focus'
import { createWindowListTool } from './window-list'

export type { DesktopToolServices } from './common'

export function createDesktopTools(services: DesktopToolServices): ToolSource {
  return toolPack('desktop', [
    createScreenshotTool(services),
    createCursorPositionTool(services),
    createWindowListTool(services),
    createMouseMoveTool(services),
    createMouseClickTool(services),
    createMouseDragTool(services),
    createScrollTool(services),
    createKeyPressTool(services),
    createTypeTextTool(services),
    createWindowFocusTool(services),
    createClipboardReadTool(services),
    createClipboardWriteTool(services)
  ])
}
