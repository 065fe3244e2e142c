/** The notify tool (docs/tools.md, "Notifications"): a notice for the person at this machine, without a question. */
import { toolPack, type ToolSource } from '../source'
import { createNotifyTool, type NotifyToolServices } from './notify'

export type { NotifyToolServices } from './notify'

export function createNotifyTools(services: NotifyToolServices): ToolSource {
  return toolPack('notify', [createNotifyTool(services)])
}
