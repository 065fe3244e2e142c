import { z } from 'zod'
import { isRefusal, readWorkspaceFile, writeWorkspaceFile } from '../../workspace'
import { defineTool, fail, ok, text, withDisplay } from '../define-tool'
import { FILE_RESULTS, PATH_LABELS, pathField, refusalOutput } from './messages'
import { fileWriteSink, trusted } from '../../provenance'

/** file_read's limit: an edit holds the file in memory twice. */
const MAX_FILE_BYTES = 20 * 1024 * 1024

export const fileEditTool = defineTool({
  name: 'file_edit',
  repeat: 'same-answer',
  description:
    'Replace one exact occurrence of "old" with "new" in a text file in the workspace. "old" must match the ' +
    'file exactly (whitespace included) and appear exactly once; include surrounding lines to make it unique.',
  shortDescription: 'In the workspace file "path", replace the one exact occurrence of "old" (whitespace included, must appear once) with "new".',
  category: 'fs',
  access: 'write',
  source: trusted,
  sink: { may: ['persist'], of: (args) => fileWriteSink(args.path) },
  input: z.object({
    path: z.string().min(1).describe('Path relative to the workspace'),
    old: z.string().min(1).describe('The exact text to replace'),
    new: z.string().describe('The replacement text')
  }),
  subjectKind: 'path',
  subject: (args) => ({ value: args.path, arg: 'path' }),
  summary: (args) => args.path,
  preview: (args, { workspace }) => ({
    title: text('title'),
    fields: [
      pathField(workspace, args.path),
      { label: text('old'), value: args.old, code: true },
      { label: text('new'), value: args.new, code: true }
    ]
  }),
  messages: {
    en: {
      ...PATH_LABELS.en,
      ...FILE_RESULTS.en,
      title: 'Edit a file',
      old: 'Replace',
      new: 'With',
      'result.oldMissing': 'The text to replace was not found in {path}.',
      'result.oldRepeated': 'The text to replace appears more than once in {path}.',
      'result.edited': 'Edited {path} at line {line}.'
    },
    'zh-CN': {
      ...PATH_LABELS['zh-CN'],
      ...FILE_RESULTS['zh-CN'],
      title: '编辑文件',
      old: '替换',
      new: '替换为',
      'result.oldMissing': '在 {path} 中找不到要替换的文字。',
      'result.oldRepeated': '要替换的文字在 {path} 中出现了不止一次。',
      'result.edited': '已编辑 {path} 第 {line} 行。'
    }
  },
  async run(args, ctx) {
    // Read through the descriptor, written through the same race-free write as file_write (docs/risk.md).
    const read = await readWorkspaceFile(ctx.workspace, args.path, { maxBytes: MAX_FILE_BYTES, signal: ctx.signal })
    if (isRefusal(read)) return refusalOutput(read, args.path)
    const original = read.data.toString('utf8')
    const path = read.display
    const first = original.indexOf(args.old)
    if (first === -1) {
      return withDisplay(fail(`"old" was not found in ${path}. Read the file and copy the text exactly.`), text('result.oldMissing', { path }))
    }
    if (original.indexOf(args.old, first + 1) !== -1) {
      return withDisplay(
        fail(`"old" appears more than once in ${path}; include more surrounding text to make it unique.`),
        text('result.oldRepeated', { path })
      )
    }
    const updated = original.slice(0, first) + args.new + original.slice(first + args.old.length)
    // The path the read resolved to, so the edit lands on the file that was read (links inside followed once).
    const wrote = await writeWorkspaceFile(ctx.workspace, path, updated)
    if (isRefusal(wrote)) return refusalOutput(wrote, args.path)
    const line = original.slice(0, first).split('\n').length
    // The display line is the whole result for a person: nothing to repeat under it (issue 22, item 8).
    return withDisplay(ok(`Edited ${path} at line ${line}.`, ''), text('result.edited', { path, line }))
  }
})
