/** The built-in tools, one file each. */
import type { AnyTool } from '../define-tool'
import { fileEditTool } from './file-edit'
import { fileListTool } from './file-list'
import { fileReadTool } from './file-read'
import { fileWriteTool } from './file-write'
import { shellTool } from './shell'

export const builtinTools: AnyTool[] = [
  shellTool,
  fileReadTool,
  fileWriteTool,
  fileEditTool,
  fileListTool
] as unknown as AnyTool[]
