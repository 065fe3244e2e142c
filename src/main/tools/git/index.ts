/**
 * The git tool: git's everyday subcommands as an argv in the workspace repository, run by the
 * runtime the settings chose and judged like the same `git …` command line (docs/tools.md, "git").
 */
import { toolPack, type ToolSource } from '../source'
import { createGitTool, type GitToolServices } from './git'

export type { GitToolServices } from './git'

export function createGitTools(services: GitToolServices): ToolSource {
  return toolPack('git', [createGitTool(services.runtime)])
}
