/** Messaging tools (docs/desktop.md, "Sending messages"): text into desktop chat apps, verified on screen, asked every time. */
import { toolPack, type ToolSource } from '../source'
import { createSendTextTool, type MessagingToolServices } from './desktop-send-text'

export type { MessagingToolServices } from './desktop-send-text'

export function createMessagingTools(services: MessagingToolServices): ToolSource {
  return toolPack('messaging', [createSendTextTool(services)])
}
