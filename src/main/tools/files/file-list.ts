import { z } from 'zod'
import { isRefusal, listWorkspaceFolder } from '../../workspace'
import { defineTool, fail, ok, text, withDisplay } from '../define-tool'
import { FILE_RESULTS, PATH_LABELS, pathField, refusalOutput } from './messages'
import { noSink, untrusted } from '../../provenance'

const MAX_ENTRIES = 1_000

export const fileListTool = defineTool({
  name: 'file_list',
  repeat: 'same-answer',
  description: 'List the files and folders in a workspace folder (not recursive). Folders end with "/".',
  shortDescription: 'List one workspace folder ("path", default the workspace), not recursive; folders end with "/".',
  category: 'fs',
  access: 'read',
  source: untrusted('workspace_file'),
  sink: noSink,
  input: z.object({
    path: z.string().optional().describe('Folder relative to the workspace (default: the workspace root)')
  }),
  // No path means the workspace itself: still judged as a path, but no finding points into a missing argument.
  subjectKind: 'path',
  subject: (args) => (args.path === undefined ? { value: '.' } : { value: args.path, arg: 'path' }),
  summary: (args) => args.path ?? '',
  preview: (args, { workspace }) => ({
    title: text('title'),
    fields: [pathField(workspace, args.path ?? '.')]
  }),
  messages: {
    en: {
      ...PATH_LABELS.en,
      ...FILE_RESULTS.en,
      title: 'List a folder',
      'result.isFile': '{path} is a file, not a folder.',
      'result.folderNotFound': 'Folder not found: {path}.',
      'result.folderEmpty': '{path} is empty.',
      'result.listed': '{count} entries in {path}.'
    },
    'zh-CN': {
      ...PATH_LABELS['zh-CN'],
      ...FILE_RESULTS['zh-CN'],
      title: '列出文件夹',
      'result.isFile': '{path} 是文件，不是文件夹。',
      'result.folderNotFound': '找不到文件夹：{path}。',
      'result.folderEmpty': '{path} 是空文件夹。',
      'result.listed': '{path} 中有 {count} 项。'
    }
  },
  async run(args, ctx) {
    // Listed through the folder it opened, never by path again (docs/risk.md, "At run time: file tools").
    const listed = await listWorkspaceFolder(ctx.workspace, args.path ?? '.')
    if (isRefusal(listed)) {
      const path = listed.path
      if (listed.code === 'notFolder') return withDisplay(fail(`${path} is a file, not a folder; use file_read.`), text('result.isFile', { path }))
      if (listed.code === 'notFound') return withDisplay(fail(`Folder not found: ${path}`), text('result.folderNotFound', { path }))
      return refusalOutput(listed, args.path ?? '.')
    }
    const { display: path, entries } = listed
    const names = entries
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort((a, b) => a.localeCompare(b))
    if (names.length === 0) return withDisplay(ok(`${path} is empty.`, ''), text('result.folderEmpty', { path }))
    const shown = names.slice(0, MAX_ENTRIES)
    const more = names.length > MAX_ENTRIES ? `\n[${names.length - MAX_ENTRIES} more entries not shown]` : ''
    return withDisplay(ok(shown.join('\n') + more), text('result.listed', { path, count: names.length }))
  }
})
