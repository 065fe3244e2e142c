import { readdir } from 'node:fs/promises'
import { z } from 'zod'
import { confineToWorkspace } from '../../workspace'
import { defineTool, fail, ok, text } from '../define-tool'
import { PATH_LABELS, pathField } from './messages'

const MAX_ENTRIES = 1_000

export const fileListTool = defineTool({
  name: 'file_list',
  description: 'List the files and folders in a workspace folder (not recursive). Folders end with "/".',
  category: 'fs',
  access: 'read',
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
    en: { ...PATH_LABELS.en, title: 'List a folder' },
    'zh-CN': { ...PATH_LABELS['zh-CN'], title: '列出文件夹' }
  },
  async run(args, ctx) {
    const target = confineToWorkspace(ctx.workspace, args.path ?? '.')
    const entries = await readdir(target.absolute, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOTDIR') return `${target.display} is a file, not a folder; use file_read.`
      return `Folder not found: ${target.display}`
    })
    if (typeof entries === 'string') return fail(entries)
    const names = entries
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort((a, b) => a.localeCompare(b))
    if (names.length === 0) return ok(`${target.display} is empty.`)
    const shown = names.slice(0, MAX_ENTRIES)
    const more = names.length > MAX_ENTRIES ? `\n[${names.length - MAX_ENTRIES} more entries not shown]` : ''
    return ok(shown.join('\n') + more)
  }
})
