import { readFile, stat } from 'node:fs/promises'
import { z } from 'zod'
import { confineToWorkspace } from '../../workspace'
import { defineTool, fail, ok, text } from '../define-tool'
import { PATH_LABELS, pathField } from './messages'

const DEFAULT_LIMIT = 2_000
/** Larger files are read in pages; binary files are refused rather than dumped. */
const MAX_FILE_BYTES = 20 * 1024 * 1024

export const fileReadTool = defineTool({
  name: 'file_read',
  description:
    'Read a text file in the workspace. Returns numbered lines. For long files pass "offset" (first line, 1-based) ' +
    `and "limit" (number of lines, default ${DEFAULT_LIMIT}) to read a part.`,
  category: 'fs',
  access: 'read',
  input: z.object({
    path: z.string().min(1).describe('Path relative to the workspace'),
    offset: z.number().int().min(1).optional().describe('First line to read, 1-based'),
    limit: z.number().int().min(1).max(10_000).optional().describe('How many lines to read')
  }),
  subjectKind: 'path',
  subject: (args) => ({ value: args.path, arg: 'path' }),
  summary: (args) => args.path,
  preview: (args, { workspace }) => ({
    title: text('title'),
    fields: [pathField(workspace, args.path)]
  }),
  messages: {
    en: { ...PATH_LABELS.en, title: 'Read a file' },
    'zh-CN': { ...PATH_LABELS['zh-CN'], title: '读取文件' }
  },
  truncationHint: 'Read the rest with file_read and a larger offset.',
  async run(args, ctx) {
    const target = confineToWorkspace(ctx.workspace, args.path)
    const info = await stat(target.absolute).catch(() => null)
    if (!info) return fail(`File not found: ${target.display}`)
    if (info.isDirectory()) return fail(`${target.display} is a folder; use file_list to see what it holds.`)
    if (info.size > MAX_FILE_BYTES) return fail(`${target.display} is ${info.size} bytes, larger than file_read handles.`)
    const buffer = await readFile(target.absolute)
    if (buffer.subarray(0, 8_000).includes(0)) return fail(`${target.display} looks like a binary file; not read.`)
    const lines = buffer.toString('utf8').split('\n')
    if (lines.at(-1) === '') lines.pop()
    const offset = args.offset ?? 1
    const limit = args.limit ?? DEFAULT_LIMIT
    if (lines.length > 0 && offset > lines.length) {
      return fail(`${target.display} has ${lines.length} lines; offset ${offset} is past the end.`)
    }
    const page = lines.slice(offset - 1, offset - 1 + limit)
    const width = String(offset + page.length).length
    const numbered = page.map((line, i) => `${String(offset + i).padStart(width)}\t${line}`).join('\n')
    const last = offset + page.length - 1
    const more =
      last < lines.length ? `\n[lines ${offset}-${last} of ${lines.length}; read on with offset ${last + 1}]` : ''
    return ok(lines.length === 0 ? `(${target.display} is empty)` : numbered + more)
  }
})
