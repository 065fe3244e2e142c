/**
 * The search tools: `grep` (file contents, ripgrep's semantics) and `glob` (files by name, most
 * recent first), both reads confined to the workspace by real path (docs/tools.md, "grep and glob").
 * The workspace is per-run hidden context, so the pack needs no services.
 */
import { toolPack, type ToolSource } from '../source'
import { globTool } from './glob'
import { grepTool } from './grep'

export function createSearchTools(): ToolSource {
  return toolPack('search', [grepTool, globTool])
}
