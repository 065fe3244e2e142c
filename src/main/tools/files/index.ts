/**
 * The file tools: read, write, edit and list files inside the workspace. The workspace is per-run
 * hidden context (ToolContext.workspace), so the pack needs no services.
 */
import { toolPack, type ToolSource } from '../source'
import { fileEditTool } from './file-edit'
import { fileListTool } from './file-list'
import { fileReadTool } from './file-read'
import { fileWriteTool } from './file-write'

export function createFileTools(): ToolSource {
  return toolPack('files', [fileReadTool, fileWriteTool, fileEditTool, fileListTool])
}
