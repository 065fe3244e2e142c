/**
 * The hardware tools (docs/devices.md): what is plugged in (a read that runs without asking), and
 * serial sessions — open, write, read, close — that ask in supervised mode, with one "allow for this
 * conversation" per port.
 */
import { toolPack, type ToolSource } from '../source'
import type { HardwareToolServices } from './common'
import { createDevicesListTool } from './devices-list'
import { createSerialCloseTool } from './serial-close'
import { createSerialOpenTool } from './serial-open'
import { createSerialReadTool } from './serial-read'
import { createSerialWriteTool } from './serial-write'

export type { HardwareToolServices } from './common'

export function createHardwareTools(services: HardwareToolServices): ToolSource {
  return toolPack('hardware', [
    createDevicesListTool(services),
    createSerialOpenTool(services),
    createSerialWriteTool(services),
    createSerialReadTool(services),
    createSerialCloseTool(services)
  ])
}
