/**
 * The browser tools (docs/tools.md, "Browser"): the user's own Chromium, Chrome or Edge through the
 * BrowserService, one context per conversation; elements named by role, label, text or snapshot
 * ref, never by pixels. Reading runs without asking; a new site, a form, a download, an upload and a
 * password ask in the run (docs/risk.md, "Browser").
 */
import { toolPack, type ToolSource } from '../source'
import { createBrowserCheckTool } from './check'
import { createBrowserClickTool } from './click'
import { createBrowserCloseTool } from './close'
import type { BrowserToolServices } from './common'
import { createBrowserHistoryTool } from './history'
import { createBrowserOpenTool } from './open'
import { createBrowserPressTool } from './press'
import { createBrowserReadTool } from './read'
import { createBrowserScreenshotTool } from './screenshot'
import { createBrowserSelectTool } from './select'
import { createBrowserSnapshotTool } from './snapshot'
import { createBrowserTabsTool } from './tabs'
import { createBrowserTypeTool } from './type'
import { createBrowserUploadTool } from './upload'
import { createBrowserWaitTool } from './wait'

export type { BrowserToolServices } from './common'

export function createBrowserTools(services: BrowserToolServices): ToolSource {
  return toolPack('browser', [
    createBrowserOpenTool(services),
    createBrowserSnapshotTool(services),
    createBrowserReadTool(services),
    createBrowserScreenshotTool(services),
    createBrowserClickTool(services),
    createBrowserTypeTool(services),
    createBrowserSelectTool(services),
    createBrowserCheckTool(services),
    createBrowserUploadTool(services),
    createBrowserPressTool(services),
    createBrowserWaitTool(services),
    createBrowserHistoryTool(services),
    createBrowserTabsTool(services),
    createBrowserCloseTool(services)
  ])
}
