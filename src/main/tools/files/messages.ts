import { confineToWorkspace } from '../../workspace'
import { text } from '../define-tool'

/** Labels the file tools share in their approval previews. */
export const PATH_LABELS = {
  en: { path: 'Path' },
  'zh-CN': { path: '路径' }
} as const

/** Result lines (ToolOutput.display) more than one file tool gives; spread into each file tool's messages. */
export const FILE_RESULTS = {
  en: { 'result.notFound': 'File not found: {path}.' },
  'zh-CN': { 'result.notFound': '找不到文件：{path}。' }
} as const

/** The preview field every file tool shows first: the path, resolved against the workspace (refused when it leaves it). */
export function pathField(workspace: string, path: string) {
  return { label: text('path'), value: confineToWorkspace(workspace, path).display, code: true, arg: 'path' }
}
