/** The shell tool: commands run by the runtime the settings chose (docs/runtimes.md). */
import { toolPack, type ToolSource } from '../source'
import { createShellTool, type ShellToolServices } from './shell'

export type { ShellToolServices } from './shell'

export function createShellTools(services: ShellToolServices): ToolSource {
  return toolPack('shell', [createShellTool(services)])
}
