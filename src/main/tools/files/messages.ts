import { confineToWorkspace } from '../../workspace'
import { text } from '../define-tool'

/** Labels the file tools share in their approval previews. */
export const PATH_LABELS = {
  en: { path: 'Path' },
  'zh-CN': { path: '路径' }
} as const

/** The preview field every file tool shows first: the path, resolved against the workspace (refused when it leaves it). */
export function pathField(workspace: string, path: string) {
  return { label: text('path'), value: confineToWorkspace(workspace, path).display, code: true, arg: 'path' }
}
