/**
 * The git tool: git's everyday subcommands as an argv in the workspace repository, run by the
 * runtime the settings chose and judged like the same `git …` command line (docs/tools.md, "git").
 */
import type { Runtime } from '../../runtime'
import { toolPack, type ToolSource } from '../source'
import { createGitTool } from './git'

export interface GitToolServices {
  /** Where git runs; the shell tool's runtime. */
  runtime: Runtime
}

export function createGitTools(services: GitToolServices): ToolSource {
  return toolPack('git', [createGitTool(services.runtime)])
}
