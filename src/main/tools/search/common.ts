import { realpathSync, statSync } from 'node:fs'
import { confineToWorkspace, isRefusal, WorkspaceEscapeError, WorkspaceReader } from '../../workspace'
import { fail, text, withDisplay, type ToolOutput } from '../define-tool'

/** Labels and result lines both search tools use; spread into each tool's messages. */
export const SEARCH_MESSAGES = {
  en: {
    path: 'Folder',
    pattern: 'Pattern',
    'result.outside': '{path} is outside the workspace.',
    'result.notFound': 'Not found: {path}.',
    'result.badPattern': 'The pattern is not valid: {error}.',
    'result.stopped': 'Stopped by the user.'
  },
  'zh-CN': {
    path: '文件夹',
    pattern: '模式',
    'result.outside': '{path} 在工作区之外。',
    'result.notFound': '找不到：{path}。',
    'result.badPattern': '模式无效：{error}。',
    'result.stopped': '已被用户停止。'
  }
} as const

/** Where a search starts: the workspace's real path and the start's, or the error result when it would leave it. */
export type SearchStart = { root: string; start: string; display: string } | { refused: ToolOutput }

/**
 * Resolves the folder to search by canonical real path (docs/tools.md, "grep and glob"): `..`, an
 * absolute path elsewhere and a symbolic link out are refused, exactly as the file tools refuse them.
 */
export function searchStart(workspace: string, path: string | undefined): SearchStart {
  const requested = path ?? '.'
  try {
    const confined = confineToWorkspace(workspace, requested)
    statSync(confined.absolute)
    return { root: realpathSync(workspace), start: confined.absolute, display: confined.display }
  } catch (error) {
    if (error instanceof WorkspaceEscapeError) {
      return { refused: withDisplay(fail(error.message), text('result.outside', { path: requested })) }
    }
    return { refused: withDisplay(fail(`Not found in the workspace: ${requested}`), text('result.notFound', { path: requested })) }
  }
}

/** The workspace held open for a search's listings and reads, or the error result when it cannot be. */
export async function openReader(workspace: string): Promise<WorkspaceReader | { refused: ToolOutput }> {
  const reader = await WorkspaceReader.open(workspace)
  if (!isRefusal(reader)) return reader
  return { refused: withDisplay(fail(`The workspace could not be opened (${reader.code}).`), text('result.notFound', { path: '.' })) }
}

export const stopped = (): ToolOutput => withDisplay(fail('Cancelled by the user.'), text('result.stopped'))

export const badPattern = (error: string): ToolOutput =>
  withDisplay(fail(`The pattern is not valid: ${error}`), text('result.badPattern', { error }))

/**
 * A glob that could only mean a place outside the workspace (`/etc/*`, `../x`) is refused rather
 * than silently matching nothing.
 */
export function globLeavesWorkspace(glob: string): boolean {
  return glob.startsWith('/') || /^[A-Za-z]:[\\/]/.test(glob) || glob.split(/[\\/]/).includes('..')
}

/** What grep and glob both take: a pattern, and a folder of the workspace to look in. */
interface SearchArgs {
  pattern: string
  path?: string
}

/** The risk subject: the folder searched (the workspace itself when none is given). */
export const searchSubject = (args: SearchArgs) => (args.path === undefined ? { value: '.' } : { value: args.path, arg: 'path' })

export const searchSummary = (args: SearchArgs): string => (args.path ? `${args.pattern}  ${args.path}` : args.pattern)

export const searchPreview = (args: SearchArgs) => ({
  title: text('title'),
  fields: [
    { label: text('pattern'), value: args.pattern, code: true, arg: 'pattern' },
    { label: text('path'), value: args.path ?? '.', code: true, ...(args.path !== undefined ? { arg: 'path' } : {}) }
  ]
})
