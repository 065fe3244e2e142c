/** The shell tool: commands run by the runtime the settings chose (docs/runtimes.md). */
import type { Runtime } from '../../runtime'
import { toolPack, type ToolSource } from '../source'
import { createShellTool } from './shell'
export { SHELL_SUBJECT } from './subject'

export interface ShellToolServices {
  /** Where commands run; chosen by settings, never by the model. */
  runtime: Runtime
}

export function createShellTools(services: ShellToolServices): ToolSource {
  return toolPack('shell', [createShellTool(services)])
}
