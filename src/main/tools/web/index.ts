/**
 * The web tools (docs/tools.md): web_fetch reads a page as Markdown, http_request sends any
 * request. Every hop goes through the URL guardian the composition root passes in (docs/risk.md,
 * "Network").
 */
import { toolPack, type ToolSource } from '../source'
import type { WebToolServices } from './common'
import { createHttpRequestTool } from './http-request'
import { createWebFetchTool } from './web-fetch'

export type { WebHop, WebToolServices } from './common'
/** The page-to-Markdown converter, shared with the browser tools' browser_read. */
export { htmlToMarkdown } from './readable'

export function createWebTools(services: WebToolServices): ToolSource {
  return toolPack('web', [createWebFetchTool(services), createHttpRequestTool(services)])
}
